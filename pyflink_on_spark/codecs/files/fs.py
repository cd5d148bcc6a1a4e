"""The little file-system surface the file sink needs: local paths through os, other URIs
(s3://, gs://, hdfs://...) through pyarrow.fs, which ships with PySpark's Arrow support."""
from __future__ import annotations

import os
import shutil
from typing import BinaryIO, Callable, Dict, Mapping, Optional, Tuple
from urllib.parse import urlparse


def is_local(uri: str) -> bool:
    scheme = urlparse(uri).scheme
    return scheme in ("", "file") or (len(scheme) == 1 and os.name == "nt")


def local_path(uri: str) -> str:
    if uri.startswith("file:"):
        return "/" + uri[5:].lstrip("/")
    return os.path.abspath(uri)


def join(base: str, *parts: str) -> str:
    base = base.rstrip("/")
    rest = "/".join(p.strip("/") for p in parts if p)
    return base + "/" + rest if rest else base


# Object stores speaking the S3 API. Spark reaches them through Hadoop's s3a connector (s3a://,
# or s3:// where the platform maps it to its own), the shim's Python parts (checkpoint store,
# file sink, file listing) through pyarrow's S3FileSystem, whatever the scheme. pyarrow takes
# credentials from AWS's default chain (environment, ~/.aws, the machine's role) but never the
# endpoint from the environment: so what the job gave Hadoop (spark.hadoop.fs.s3a.*) is read
# once on the driver (object_storage_options) and set in every task (configure_object_storage,
# by the task's WorkerSetup), and both sides talk to the same store.
S3_SCHEMES = ("s3", "s3a", "s3n")
_object_storage: Dict[str, object] = {}
_s3_filesystems: Dict[Tuple, object] = {}


def object_storage_options(conf_get: Callable[[str], Optional[str]]) -> Dict[str, object]:
    """pyarrow S3FileSystem arguments from the Hadoop s3a settings of a Spark conf
    (``conf_get("spark.hadoop.fs.s3a.endpoint")`` ...); {} when none is set."""
    def get(key: str) -> Optional[str]:
        value = conf_get("spark.hadoop.fs.s3a." + key)
        return value.strip() if value else None

    options: Dict[str, object] = {}
    endpoint = get("endpoint")
    if endpoint:
        parsed = urlparse(endpoint if "://" in endpoint else "//" + endpoint)
        options["endpoint_override"] = parsed.netloc or endpoint
        if parsed.scheme:
            options["scheme"] = parsed.scheme
    if (get("connection.ssl.enabled") or "").lower() == "false":
        options["scheme"] = "http"
    region = get("endpoint.region") or get("region")
    if region:
        options["region"] = region
    for key, argument in (("access.key", "access_key"), ("secret.key", "secret_key"),
                          ("session.token", "session_token")):
        value = get(key)
        if value:
            options[argument] = value
    return options


def configure_object_storage(options: Mapping[str, object]) -> None:
    """Sets how this process reaches S3-API stores (the driver's options, in a task)."""
    if dict(options) != _object_storage:
        _object_storage.clear()
        _object_storage.update(options)


def filesystem_of(uri: str) -> Tuple[object, str]:
    """(pyarrow filesystem, path inside it) for a URI or a local path."""
    from pyarrow import fs as pafs
    if is_local(uri):
        return pafs.LocalFileSystem(), local_path(uri)
    parsed = urlparse(uri)
    if parsed.scheme in S3_SCHEMES:
        key = tuple(sorted(_object_storage.items()))
        filesystem = _s3_filesystems.get(key)
        if filesystem is None:
            filesystem = _s3_filesystems[key] = pafs.S3FileSystem(**_object_storage)
        return filesystem, (parsed.netloc + parsed.path).rstrip("/") or parsed.netloc
    return pafs.FileSystem.from_uri(uri)


_remote = filesystem_of


def open_write(uri: str) -> BinaryIO:
    if is_local(uri):
        path = local_path(uri)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return open(path, "wb")
    filesystem, path = _remote(uri)
    filesystem.create_dir(path.rsplit("/", 1)[0], recursive=True)
    return filesystem.open_output_stream(path)


def rename(source: str, target: str) -> None:
    if is_local(source):
        target_path = local_path(target)
        os.makedirs(os.path.dirname(target_path), exist_ok=True)
        os.replace(local_path(source), target_path)
        return
    filesystem, source_path = _remote(source)
    _, target_path = _remote(target)
    filesystem.create_dir(target_path.rsplit("/", 1)[0], recursive=True)
    filesystem.move(source_path, target_path)


def remove_tree(uri: str) -> None:
    if is_local(uri):
        shutil.rmtree(local_path(uri), ignore_errors=True)
        return
    filesystem, path = _remote(uri)
    try:
        filesystem.delete_dir(path)
    except (FileNotFoundError, OSError):
        pass


def list_names(uri: str):
    """Names of the entries directly in directory `uri` ([] when it does not exist)."""
    if is_local(uri):
        try:
            return sorted(os.listdir(local_path(uri)))
        except OSError:
            return []
    from pyarrow import fs as pafs
    filesystem, path = _remote(uri)
    infos = filesystem.get_file_info(pafs.FileSelector(path, allow_not_found=True))
    return sorted(i.base_name for i in infos)


def remove_file(uri: str) -> None:
    if is_local(uri):
        try:
            os.remove(local_path(uri))
        except OSError:
            pass
        return
    filesystem, path = _remote(uri)
    try:
        filesystem.delete_file(path)
    except (FileNotFoundError, OSError):
        pass


def exists(uri: str) -> bool:
    if is_local(uri):
        return os.path.exists(local_path(uri))
    from pyarrow import fs as pafs
    filesystem, path = _remote(uri)
    return filesystem.get_file_info(path).type != pafs.FileType.NotFound


def is_dir(uri: str) -> bool:
    if is_local(uri):
        return os.path.isdir(local_path(uri))
    from pyarrow import fs as pafs
    filesystem, path = _remote(uri)
    return filesystem.get_file_info(path).type == pafs.FileType.Directory


def read_bytes(uri: str) -> bytes:
    """The file's bytes; FileNotFoundError when it does not exist."""
    if is_local(uri):
        with open(local_path(uri), "rb") as f:
            return f.read()
    filesystem, path = _remote(uri)
    with filesystem.open_input_stream(path) as f:
        return f.read()
