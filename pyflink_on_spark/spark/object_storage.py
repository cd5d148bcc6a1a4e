"""How the driver and the tasks reach S3-API object stores: the session's Hadoop s3a settings
(``spark.hadoop.fs.s3a.*``), which Spark's own readers use, turned into pyarrow's options for
the shim's Python parts (codecs/files/fs.py says why both are needed)."""
from __future__ import annotations

from typing import Optional, Tuple

from pyflink_on_spark.codecs.files.fs import configure_object_storage, object_storage_options

ObjectStorage = Tuple[Tuple[str, object], ...]


def object_storage_of(session) -> ObjectStorage:
    """The session's s3a settings as pyarrow options, set in this process as well (the driver
    lists sources, commits sinks and completes checkpoints), returned for the tasks."""
    options = object_storage_options(lambda key: _conf_value(session, key))
    configure_object_storage(options)
    return tuple(sorted(options.items()))


def _conf_value(session, key: str) -> Optional[str]:
    try:
        return session.sparkContext.getConf().get(key, None)
    except Exception:   # Spark Connect: no SparkContext on the client; the server's conf
        try:
            return session.conf.get(key, None)
        except Exception:
            return None
