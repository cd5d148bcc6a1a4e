"""S3-API stores as the shim's Python side reaches them (codecs/files/fs.py): the Hadoop s3a
settings a job gives Spark become pyarrow's options, and s3://, s3a:// and s3n:// URIs all
name a bucket and key of one S3 file system."""
import pytest

from pyflink_on_spark.codecs.files import fs


def _options(conf):
    return fs.object_storage_options(lambda key: conf.get(key))


def test_no_s3a_settings_give_no_options_aws_default_chain_applies():
    assert _options({}) == {}


def test_an_http_endpoint_with_keys_and_region_becomes_pyarrow_options():
    assert _options({"spark.hadoop.fs.s3a.endpoint": "http://127.0.0.1:9000",
                     "spark.hadoop.fs.s3a.endpoint.region": "eu-west-1",
                     "spark.hadoop.fs.s3a.access.key": "AK",
                     "spark.hadoop.fs.s3a.secret.key": "SK",
                     "spark.hadoop.fs.s3a.session.token": "TOKEN"}) == {
        "endpoint_override": "127.0.0.1:9000", "scheme": "http", "region": "eu-west-1",
        "access_key": "AK", "secret_key": "SK", "session_token": "TOKEN"}


def test_an_endpoint_without_scheme_keeps_https_unless_ssl_is_turned_off():
    assert _options({"spark.hadoop.fs.s3a.endpoint": "minio.internal:9000"}) == {
        "endpoint_override": "minio.internal:9000"}
    assert _options({"spark.hadoop.fs.s3a.endpoint": "minio.internal:9000",
                     "spark.hadoop.fs.s3a.connection.ssl.enabled": "false"}) == {
        "endpoint_override": "minio.internal:9000", "scheme": "http"}


def test_the_older_region_key_counts_too():
    assert _options({"spark.hadoop.fs.s3a.region": "us-west-2"}) == {"region": "us-west-2"}


@pytest.mark.parametrize("scheme", ["s3", "s3a", "s3n"])
def test_every_s3_scheme_names_bucket_and_key_on_one_configured_filesystem(scheme):
    from pyarrow import fs as pafs
    fs.configure_object_storage({"endpoint_override": "127.0.0.1:1", "scheme": "http",
                                 "region": "us-east-1"})
    try:
        filesystem, path = fs.filesystem_of("%s://bucket/dir/file.txt" % scheme)
        assert isinstance(filesystem, pafs.S3FileSystem)
        assert path == "bucket/dir/file.txt"
        assert fs.filesystem_of("%s://bucket/" % scheme)[1] == "bucket"
        assert fs.filesystem_of("s3a://bucket/x")[0] is filesystem   # one per configuration
    finally:
        fs.configure_object_storage({})


def test_local_paths_and_file_uris_stay_local():
    from pyarrow import fs as pafs
    for uri, path in (("/tmp/a/b", "/tmp/a/b"), ("file:///tmp/a", "/tmp/a"),
                      ("file:/tmp/a", "/tmp/a")):
        filesystem, found = fs.filesystem_of(uri)
        assert isinstance(filesystem, pafs.LocalFileSystem)
        assert found == path
