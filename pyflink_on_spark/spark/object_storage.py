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
    options = _context_options(session)
    if options is None:   # Spark Connect: no SparkContext on the client; the server's conf
        options = object_storage_options(lambda key: _session_conf_value(session, key))
    configure_object_storage(options)
    return tuple(sorted(options.items()))


# (SparkContext, its s3a settings as pyarrow options): read once per context. A context's
# conf is fixed once it runs (Spark's own readers took their Hadoop settings from it at its
# start); reading it on every run cost a copy of the whole conf per setting looked up
# (SparkContext.getConf: a few Py4J calls an entry, seven settings): ~0.2 s of a small job's
# driver time on a quiet machine, 20% of the job thread's time in compat cases at load 15
_read: list = [None, None]


def _context_options(session) -> Optional[dict]:
    """The options from the session's SparkContext's conf, None on Spark Connect."""
    try:
        context = session.sparkContext
        if _read[0] is not context:
            conf = context.getConf()
            _read[:] = [context, object_storage_options(lambda key: conf.get(key, None))]
    except Exception:
        return None
    return dict(_read[1])


def _session_conf_value(session, key: str) -> Optional[str]:
    try:
        return session.conf.get(key, None)
    except Exception:
        return None
