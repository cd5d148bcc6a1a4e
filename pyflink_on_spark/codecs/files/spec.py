"""The frozen description of a file sink the operator and the committer share."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STAGING_PREFIX = ".pyflink-on-spark-staging-"


@dataclass(frozen=True)
class FileSinkSpec:
    base_path: str
    writer: Any                 # a codecs.files.writers.PartWriterFactory bound to the input type
    buckets: Any                # codecs.files.buckets.BasePathBuckets | DateTimeBuckets
    rolling: Any                # codecs.files.rolling.DefaultRolling | CheckpointRolling
    part_prefix: str = "part"
    part_suffix: str = ""
    naming: str = "uuid"        # FileSink: <prefix>-<uuid>-<n><suffix>;
                                # StreamingFileSink: <prefix>-<subtask>-<n><suffix>
    converter: Any = None       # value -> the declared type, as it enters the Java sink
    bucket_check_interval: int = 60_000
    staging_token: str = ""     # unique per sink_to(): the job's hidden staging directory

    @property
    def staging_dir(self) -> str:
        from pyflink_on_spark.codecs.files.fs import join
        return join(self.base_path, STAGING_PREFIX + self.staging_token)
