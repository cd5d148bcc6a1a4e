"""File sources and sinks (mirror of pyflink.datastream.connectors.file_system, 1.20).

FileSource reads with Spark's own file readers, in parallel Spark tasks
(spark/file_source.py); FileSink / StreamingFileSink write part files from the sink's
subtasks into a hidden staging directory and publish them only after the job succeeded
(codecs/files). The Java objects PyFlink wraps are plain-Python descriptions here.
"""
from __future__ import annotations

import os
import uuid
import warnings
from abc import abstractmethod
from typing import Optional

from pyflink_on_spark.common.serialization import BulkWriterFactory, Encoder
from pyflink_on_spark.common.utils import JavaObjectWrapper
from pyflink_on_spark.datastream.connectors.base import (Sink, Source, StreamTransformer,
                                                          SupportsPreprocessing)
from pyflink_on_spark.datastream.functions import SinkFunction

__all__ = [
    'FileCompactor',
    'FileCompactStrategy',
    'OutputFileConfig',
    'FileSource',
    'FileSourceBuilder',
    'FileSink',
    'StreamingFileSink',
    'StreamFormat',
    'BulkFormat',
    'FileEnumeratorProvider',
    'FileSplitAssignerProvider',
    'RollingPolicy',
    'BucketAssigner'
]


def _absolute(path: str) -> str:
    """Relative local paths are resolved now, against the program's working directory (as
    Flink resolves them), not later against the JVM's."""
    if "://" in path or path.startswith("file:"):
        return path
    return os.path.abspath(path)


# ---- FileSource ----

class FileEnumeratorProvider(object):
    """Which files to read and how to split them. Accepted; the shim always enumerates as
    Flink's default does: recursively, skipping files and directories whose name starts
    with '.' or '_'."""

    def __init__(self, j_file_enumerator_provider):
        self._j_file_enumerator_provider = j_file_enumerator_provider

    @staticmethod
    def default_splittable_file_enumerator() -> 'FileEnumeratorProvider':
        return FileEnumeratorProvider("default_splittable")

    @staticmethod
    def default_non_splittable_file_enumerator() -> 'FileEnumeratorProvider':
        return FileEnumeratorProvider("default_non_splittable")


class FileSplitAssignerProvider(object):
    """Which reader gets which split. Accepted; the shim gives file i (files sorted by path)
    to subtask i % parallelism (Flink hands splits out on request, nondeterministically)."""

    def __init__(self, j_file_split_assigner):
        self._j_file_split_assigner = j_file_split_assigner

    @staticmethod
    def locality_aware_split_assigner() -> 'FileSplitAssignerProvider':
        return FileSplitAssignerProvider("locality_aware")


class StreamFormat(object):
    """A reader format that reads individual records from a file stream (decompressing
    .gz, .gzip, .bz2, .xz and .deflate files by extension)."""

    def __init__(self, j_stream_format):
        # a codecs.formats.base.FileRecordFormat
        self._j_stream_format = j_stream_format

    @staticmethod
    def text_line_format(charset_name: str = "UTF-8") -> 'StreamFormat':
        """Text lines (str records), decoded with the charset; lines end at \\n, \\r or
        \\r\\n, as Java's BufferedReader reads them."""
        from pyflink_on_spark.codecs.formats.text import TextLineFormat
        return StreamFormat(TextLineFormat(charset_name))

    def _format(self):
        return self._j_stream_format


class BulkFormat(object):
    """A reader format that reads batches of records (Parquet...)."""

    def __init__(self, j_bulk_format):
        self._j_bulk_format = j_bulk_format

    def _format(self):
        return self._j_bulk_format


class FileSourceBuilder(object):
    """Configures a FileSource: see FileSource.for_record_stream_format."""

    def __init__(self, j_file_source_builder):
        self._j_file_source_builder = dict(j_file_source_builder)

    def monitor_continuously(self, discovery_interval) -> 'FileSourceBuilder':
        """An unbounded source: new files under the paths are read as they appear. The job
        runs on Spark Structured Streaming (docs/streaming.md); files are discovered once
        per micro-batch (the checkpoint interval), not every discovery_interval."""
        from pyflink_on_spark.common.watermark_strategy import _millis
        millis = _millis(discovery_interval, "monitor_continuously()")
        if millis <= 0:
            raise ValueError("The discovery interval must be positive, got %r"
                             % (discovery_interval,))
        self._j_file_source_builder["monitor_interval_ms"] = millis
        self._j_file_source_builder.pop("bounded", None)
        return self

    def process_static_file_set(self) -> 'FileSourceBuilder':
        self._j_file_source_builder["bounded"] = True
        self._j_file_source_builder.pop("monitor_interval_ms", None)
        return self

    def set_file_enumerator(self, file_enumerator: 'FileEnumeratorProvider') \
            -> 'FileSourceBuilder':
        self._j_file_source_builder["file_enumerator"] = file_enumerator
        return self

    def set_split_assigner(self, split_assigner: 'FileSplitAssignerProvider') \
            -> 'FileSourceBuilder':
        self._j_file_source_builder["split_assigner"] = split_assigner
        return self

    def build(self) -> 'FileSource':
        return FileSource(dict(self._j_file_source_builder))


class FileSource(Source):
    """A bounded source reading the files under the given paths (files or directories, read
    recursively) with Spark's file readers.

    Which subtask reads which file: files are sorted by path and file i goes to subtask
    i % parallelism; all records of one file reach that subtask in file order."""

    def __init__(self, j_file_source):
        super(FileSource, self).__init__(source=j_file_source)

    @staticmethod
    def for_record_stream_format(stream_format: StreamFormat, *paths: str) \
            -> FileSourceBuilder:
        return FileSourceBuilder({"format": stream_format._format(),
                                  "paths": tuple(_absolute(p) for p in paths)})

    @staticmethod
    def for_bulk_file_format(bulk_format: BulkFormat, *paths: str) -> FileSourceBuilder:
        return FileSourceBuilder({"format": bulk_format._format(),
                                  "paths": tuple(_absolute(p) for p in paths)})

    def _source_definition(self):
        from pyflink_on_spark.specs.sources import FileSourceSpec
        config = self._j_source
        return FileSourceSpec(config["paths"], config["format"],
                              estimated_bytes=_local_size(config["paths"]),
                              monitor_interval_ms=config.get("monitor_interval_ms", 0))

    @property
    def _produced_type(self):
        return getattr(self._j_source["format"], "produced_type", None)


def _local_size(paths) -> int:
    """Bytes under local paths (for BATCH mode's adaptive parallelism); 0 if unknown."""
    total = 0
    for path in paths:
        if "://" in path and not path.startswith("file:"):
            continue
        local = path[5:] if path.startswith("file:") else path
        if os.path.isfile(local):
            total += os.path.getsize(local)
            continue
        for root, dirs, files in os.walk(local):
            dirs[:] = [d for d in dirs if not d.startswith((".", "_"))]
            total += sum(os.path.getsize(os.path.join(root, f)) for f in files
                         if not f.startswith((".", "_")))
    return total


# ---- FileSink ----

class BucketAssigner(JavaObjectWrapper):
    """Decides the bucket (sub-directory of the base path) of each record."""

    def __init__(self, j_bucket_assigner):
        super().__init__(j_bucket_assigner)

    @staticmethod
    def base_path_bucket_assigner() -> 'BucketAssigner':
        """No bucketing: every part file in the base path."""
        from pyflink_on_spark.codecs.files.buckets import BasePathBuckets
        return BucketAssigner(BasePathBuckets())

    @staticmethod
    def date_time_bucket_assigner(format_str: str = "yyyy-MM-dd--HH", timezone_id: str = None):
        """Buckets named after the current system time (Java DateTimeFormatter pattern)."""
        from pyflink_on_spark.codecs.files.buckets import DateTimeBuckets
        return BucketAssigner(DateTimeBuckets(format_str, timezone_id))


class RollingPolicy(JavaObjectWrapper):
    """When a sink subtask closes its current part file and opens the next."""

    def __init__(self, j_rolling_policy):
        super().__init__(j_rolling_policy)

    @staticmethod
    def default_rolling_policy(part_size: int = 1024 * 1024 * 128,
                               rollover_interval: int = 60 * 1000,
                               inactivity_interval: int = 60 * 1000) -> 'DefaultRollingPolicy':
        from pyflink_on_spark.codecs.files.rolling import DefaultRolling
        return DefaultRollingPolicy(DefaultRolling(part_size, rollover_interval,
                                                   inactivity_interval))

    @staticmethod
    def on_checkpoint_rolling_policy() -> 'OnCheckpointRollingPolicy':
        from pyflink_on_spark.codecs.files.rolling import CheckpointRolling
        return OnCheckpointRollingPolicy(CheckpointRolling())


class DefaultRollingPolicy(RollingPolicy):
    """Rolls on part size, part age (rollover interval) and inactivity."""

    def __init__(self, j_rolling_policy):
        super().__init__(j_rolling_policy)


class OnCheckpointRollingPolicy(RollingPolicy):
    """Rolls only on checkpoints: one part per subtask and bucket in a bounded job."""

    def __init__(self, j_rolling_policy):
        super().__init__(j_rolling_policy)


class OutputFileConfig(JavaObjectWrapper):
    """Part file names: "<prefix>-<uid>-<counter><suffix>"."""

    @staticmethod
    def builder():
        return OutputFileConfig.OutputFileConfigBuilder()

    def __init__(self, part_prefix: str, part_suffix: str):
        self._part_prefix = part_prefix
        self._part_suffix = part_suffix
        super().__init__((part_prefix, part_suffix))

    def get_part_prefix(self) -> str:
        return self._part_prefix

    def get_part_suffix(self) -> str:
        return self._part_suffix

    class OutputFileConfigBuilder(object):
        def __init__(self):
            self.part_prefix = "part"
            self.part_suffix = ""

        def with_part_prefix(self, prefix) -> 'OutputFileConfig.OutputFileConfigBuilder':
            self.part_prefix = prefix
            return self

        def with_part_suffix(self, suffix) -> 'OutputFileConfig.OutputFileConfigBuilder':
            self.part_suffix = suffix
            return self

        def build(self) -> 'OutputFileConfig':
            return OutputFileConfig(self.part_prefix, self.part_suffix)


class FileCompactStrategy(JavaObjectWrapper):
    """Compaction of small files before commit. Accepted; the shim does not compact (a
    bounded job's parts are finished once, at the end)."""

    def __init__(self, j_file_compact_strategy):
        super().__init__(j_file_compact_strategy)

    @staticmethod
    def builder() -> 'FileCompactStrategy.Builder':
        return FileCompactStrategy.Builder()

    class Builder(object):
        def __init__(self):
            self._settings = {"num_checkpoints_before_compaction": -1, "size_threshold": -1,
                              "num_compact_threads": 1}

        def build(self) -> 'FileCompactStrategy':
            return FileCompactStrategy(dict(self._settings))

        def enable_compaction_on_checkpoint(self, num_checkpoints_before_compaction: int) \
                -> 'FileCompactStrategy.Builder':
            self._settings["num_checkpoints_before_compaction"] = \
                num_checkpoints_before_compaction
            return self

        def set_size_threshold(self, size_threshold: int) -> 'FileCompactStrategy.Builder':
            self._settings["size_threshold"] = size_threshold
            return self

        def set_num_compact_threads(self, num_compact_threads: int) \
                -> 'FileCompactStrategy.Builder':
            self._settings["num_compact_threads"] = num_compact_threads
            return self


class FileCompactor(JavaObjectWrapper):
    """How compacted files are merged. Accepted (see FileCompactStrategy)."""

    def __init__(self, j_file_compactor):
        super().__init__(j_file_compactor)

    @staticmethod
    def concat_file_compactor(file_delimiter: bytes = None):
        return FileCompactor(("concat", file_delimiter))

    @staticmethod
    def identical_file_compactor():
        return FileCompactor(("identical", None))


def _writer_of_encoder(encoder: Encoder):
    from pyflink_on_spark.codecs.files.writers import SimpleStringRowFormat
    description = encoder._j_encoder
    if isinstance(description, tuple) and description and description[0] == "simple_string":
        return SimpleStringRowFormat(description[1])
    raise NotImplementedError("Encoder %r is not supported by pyflink_on_spark; use "
                              "Encoder.simple_string_encoder()" % (description,))


def _writer_of_bulk(writer_factory: BulkWriterFactory):
    from pyflink_on_spark.codecs.files.writers import PartWriterFactory
    description = writer_factory.get_java_object()
    if isinstance(description, PartWriterFactory):
        return description
    if isinstance(description, Exception):
        raise description
    raise NotImplementedError("BulkWriterFactory %r is not supported by pyflink_on_spark; "
                              "supported: CsvBulkWriters, ParquetBulkWriters, OrcBulkWriters"
                              % (description,))


def _sink_config(base_path: str, writer, rolling, naming: str) -> dict:
    from pyflink_on_spark.codecs.files.buckets import DateTimeBuckets
    return {"base_path": _absolute(base_path), "writer": writer,
            "buckets": DateTimeBuckets(), "rolling": rolling, "prefix": "part", "suffix": "",
            "naming": naming, "bucket_check_interval": 60_000}


def _file_sink_spec(config: dict, input_type):
    """A fresh specs.sinks.FileSinkSpec, with its own staging directory."""
    from pyflink_on_spark.specs.sinks import FileSinkSpec
    converter = input_type._python_converter() if input_type is not None else None
    return FileSinkSpec(
        base_path=config["base_path"], writer=config["writer"].bind(input_type),
        buckets=config["buckets"], rolling=config["rolling"], part_prefix=config["prefix"],
        part_suffix=config["suffix"], naming=config["naming"], converter=converter,
        bucket_check_interval=config["bucket_check_interval"],
        staging_token=uuid.uuid4().hex)


class _SinkBuilderSettings(object):
    """The builder methods FileSink and StreamingFileSink share."""

    def __init__(self, j_builder):
        self._j_builder = j_builder   # the sink configuration (dict)

    def with_bucket_check_interval(self, interval: int):
        self._j_builder["bucket_check_interval"] = interval
        return self

    def with_bucket_assigner(self, bucket_assigner: BucketAssigner):
        self._j_builder["buckets"] = bucket_assigner.get_java_object()
        return self

    def with_output_file_config(self, output_file_config: OutputFileConfig):
        self._j_builder["prefix"] = output_file_config.get_part_prefix()
        self._j_builder["suffix"] = output_file_config.get_part_suffix()
        return self


class FileSink(Sink, SupportsPreprocessing):
    """Writes its input into part files under a base path, in buckets (directories; by
    default one per hour, DateTimeBucketAssigner). Part files are named
    "<prefix>-<uuid of the subtask>-<counter><suffix>". Exactly-once for the bounded jobs
    the shim runs: the parts become visible only when the whole job succeeded."""

    def __init__(self, j_file_sink, transformer: Optional[StreamTransformer] = None):
        super(FileSink, self).__init__(sink=j_file_sink)
        self._transformer = transformer

    def get_transformer(self) -> Optional[StreamTransformer]:
        return self._transformer

    _sink_name = "FileSink"

    def _sink_definition(self, input_type):
        return _file_sink_spec(self._j_sink, input_type)

    class BaseBuilder(_SinkBuilderSettings):
        def enable_compact(self, strategy: FileCompactStrategy, compactor: FileCompactor):
            self._j_builder["compaction"] = (strategy, compactor)
            return self

        def disable_compact(self):
            self._j_builder.pop("compaction", None)
            return self

        @abstractmethod
        def with_rolling_policy(self, rolling_policy):
            pass

        def build(self):
            return FileSink(dict(self._j_builder))

    class RowFormatBuilder(BaseBuilder):
        """Builder of a FileSink with a row format (an Encoder per record)."""

        def __init__(self, j_row_format_builder):
            super().__init__(j_row_format_builder)

        def with_rolling_policy(self, rolling_policy: RollingPolicy):
            self._j_builder["rolling"] = rolling_policy.get_java_object()
            return self

    @staticmethod
    def for_row_format(base_path: str, encoder: Encoder) -> 'FileSink.RowFormatBuilder':
        from pyflink_on_spark.codecs.files.rolling import DefaultRolling
        return FileSink.RowFormatBuilder(_sink_config(base_path, _writer_of_encoder(encoder),
                                                      DefaultRolling(), "uuid"))

    class BulkFormatBuilder(BaseBuilder):
        """Builder of a FileSink with a bulk format (CSV, Parquet, ORC)."""

        def __init__(self, j_bulk_format_builder):
            super().__init__(j_bulk_format_builder)
            self._transformer = None

        def with_rolling_policy(self, rolling_policy: OnCheckpointRollingPolicy):
            if not isinstance(rolling_policy, OnCheckpointRollingPolicy):
                raise ValueError('rolling_policy must be OnCheckpointRollingPolicy for bulk format')
            return self

        def build(self) -> 'FileSink':
            return FileSink(dict(self._j_builder), self._transformer)

    @staticmethod
    def for_bulk_format(base_path: str, writer_factory: BulkWriterFactory) \
            -> 'FileSink.BulkFormatBuilder':
        from pyflink_on_spark.codecs.files.rolling import CheckpointRolling
        return FileSink.BulkFormatBuilder(_sink_config(
            base_path, _writer_of_bulk(writer_factory), CheckpointRolling(), "uuid"))


# ---- StreamingFileSink ----

class StreamingFileSink(SinkFunction):
    """The deprecated file sink (DataStream.add_sink). Part files are named
    "<prefix>-<subtask index>-<counter><suffix>".

    PyFlink 1.20 finalizes this sink's parts only on checkpoints: a bounded job without
    checkpointing leaves hidden in-progress files only. The shim finishes and publishes the
    parts when the job succeeded, as FileSink does."""

    def __init__(self, j_obj):
        warnings.warn("Deprecated in 1.15. Use FileSink instead.", DeprecationWarning)
        self._j_function = j_obj   # the sink configuration (dict); no Java function here

    _sink_name = "StreamingFileSink"

    def _sink_definition(self, input_type):
        return _file_sink_spec(self._j_function, input_type)

    class BaseBuilder(_SinkBuilderSettings):
        @abstractmethod
        def with_rolling_policy(self, policy):
            pass

        def build(self) -> 'StreamingFileSink':
            return StreamingFileSink(dict(self._j_builder))

    class DefaultRowFormatBuilder(BaseBuilder):
        def __init__(self, j_default_row_format_builder):
            super().__init__(j_default_row_format_builder)

        def with_rolling_policy(self, policy: RollingPolicy):
            self._j_builder["rolling"] = policy.get_java_object()
            return self

    @staticmethod
    def for_row_format(base_path: str, encoder: Encoder) -> 'DefaultRowFormatBuilder':
        from pyflink_on_spark.codecs.files.rolling import DefaultRolling
        return StreamingFileSink.DefaultRowFormatBuilder(_sink_config(
            base_path, _writer_of_encoder(encoder), DefaultRolling(), "subtask"))

    class DefaultBulkFormatBuilder(BaseBuilder):
        def __init__(self, j_default_bulk_format_builder):
            super().__init__(j_default_bulk_format_builder)

        def with_rolling_policy(self, policy: OnCheckpointRollingPolicy):
            self._j_builder["rolling"] = policy.get_java_object()
            return self

    @staticmethod
    def for_bulk_format(base_path: str, writer_factory: BulkWriterFactory):
        from pyflink_on_spark.codecs.files.rolling import CheckpointRolling
        return StreamingFileSink.DefaultBulkFormatBuilder(_sink_config(
            base_path, _writer_of_bulk(writer_factory), CheckpointRolling(), "subtask"))
