"""object_storage_of: the s3a settings of a session's SparkContext, read once per context
(without Spark: a stand-in session)."""
from pyflink_on_spark.codecs.files import fs
from pyflink_on_spark.spark.object_storage import object_storage_of


class _Conf:
    def __init__(self, settings):
        self._settings = settings

    def get(self, key, default=None):
        return self._settings.get(key, default)


class _Context:
    def __init__(self, settings):
        self.settings = settings
        self.reads = 0

    def getConf(self):
        self.reads += 1
        return _Conf(self.settings)


class _Session:
    def __init__(self, context=None, sql_conf=None):
        self._context = context
        self.conf = _Conf(sql_conf or {})

    @property
    def sparkContext(self):
        if self._context is None:   # as on Spark Connect
            raise RuntimeError("no SparkContext")
        return self._context


S3A = {"spark.hadoop.fs.s3a.endpoint": "http://127.0.0.1:9000",
       "spark.hadoop.fs.s3a.access.key": "ak", "spark.hadoop.fs.s3a.secret.key": "sk"}
EXPECTED = (("access_key", "ak"), ("endpoint_override", "127.0.0.1:9000"),
            ("scheme", "http"), ("secret_key", "sk"))


def test_a_contexts_settings_are_read_once_and_set_here_too():
    context = _Context(S3A)
    session = _Session(context)
    try:
        assert object_storage_of(session) == EXPECTED
        assert object_storage_of(session) == EXPECTED
        assert context.reads == 1
        assert fs._object_storage == dict(EXPECTED)
        # a new context (a restarted session) is read anew
        other = _Context({})
        assert object_storage_of(_Session(other)) == ()
        assert other.reads == 1
        assert fs._object_storage == {}
    finally:
        fs.configure_object_storage({})


def test_without_a_spark_context_the_sessions_conf_is_read():
    try:
        assert object_storage_of(_Session(None, S3A)) == EXPECTED
    finally:
        fs.configure_object_storage({})
