"""The file sink's writer: one per sink subtask, writing part files into the job's hidden
staging directory and reporting each finished part (its staged and its final path) as a
committable. Nothing becomes visible here: the driver publishes after the job succeeded."""
from __future__ import annotations

import errno
import uuid
from typing import Dict, List, Tuple

from pyflink_on_spark.codecs.files import fs
from pyflink_on_spark.specs.sinks import FileSinkSpec
from pyflink_on_spark.runtime.operators.base import Operator


class _OpenPart:
    __slots__ = ("writer", "staged", "final", "created", "updated")

    def __init__(self, writer, staged: str, final: str, now: int) -> None:
        self.writer = writer
        self.staged = staged
        self.final = final
        self.created = now
        self.updated = now


IN_PROGRESS = ".inprogress."

# errors of the file system under the sink, not of the user's code or data
_STORAGE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO}


class FileSinkStorageError(OSError):
    """The sink's file system refused a write (full disk, quota, read-only, I/O error)."""


def storage_error(error: OSError, path: str, base_path: str) -> OSError:
    """`error` with the part file and the sink's directory named, when it is the file
    system's; other errors unchanged."""
    if not isinstance(error, OSError) or error.errno not in _STORAGE_ERRNOS:
        return error
    return FileSinkStorageError(
        error.errno, "%s while writing the part file %s of the FileSink into %s: free space "
        "there (or give the sink another base path) and run the job again; nothing of this "
        "run was published" % (error.strerror or error, path, base_path))


def in_progress_name(final_name: str) -> str:
    """Flink's name of a part file being written (in progress, then pending until the
    checkpoint completes): hidden, beside its final name, unique per attempt."""
    return ".%s%s%s" % (final_name, IN_PROGRESS, uuid.uuid4())


class FileSinkOperator(Operator):
    # An unbounded job's sink (runtime/checkpoint) writes its parts as Flink's STREAMING
    # FileSink does: hidden in-progress files in the bucket directory, renamed to their
    # final names when the checkpoint (micro-batch) that covers them completes. A bounded
    # job's sink writes into the job's staging directory (published when the job succeeds).
    in_progress_in_place = False

    def __init__(self, spec: FileSinkSpec) -> None:
        super().__init__()
        self.spec = spec

    def open(self) -> None:
        spec = self.spec
        task = self.task
        self._clock = task.clock
        self._subtask_id = str(task.subtask_index) if spec.naming == "subtask" \
            else str(uuid.uuid4())
        self._staging = fs.join(spec.staging_dir, "%d-%d" % (task.subtask_index,
                                                             task.attempt_number))
        self._open: Dict[str, _OpenPart] = {}
        self._counters: Dict[str, int] = {}
        self._committables: List[Tuple[str, str]] = []
        self._next_check = self._clock() + spec.bucket_check_interval
        self._bucket_id = spec.buckets.bucket_id
        self._convert = spec.converter
        self._rolling = spec.rolling

    def process_element(self, value, timestamp) -> None:
        now = self._clock()
        # per-record path: user code (converter, bucket assigner, encoder) is called inline
        # rather than through call_user
        try:
            if self._convert is not None:
                value = self._convert(value)
            bucket = self._bucket_id(value, now)
        except Exception as e:
            raise self.user_error(e) from None
        part = self._open.get(bucket)
        if part is not None and self._rolling.should_roll_on_event(part.writer.size):
            self._finish(bucket)
            part = None
        if part is None:
            part = self._new_part(bucket, now)
        try:
            part.writer.write(value)
        except Exception as e:
            raise self.user_error(storage_error(e, part.staged, self.spec.base_path)) from None
        part.updated = now
        if now >= self._next_check:
            self._roll_on_time(now)

    def _new_part(self, bucket: str, now: int) -> _OpenPart:
        spec = self.spec
        counter = self._counters.get(bucket, 0)
        self._counters[bucket] = counter + 1
        name = "%s-%s-%d%s" % (spec.part_prefix, self._subtask_id, counter, spec.part_suffix)
        final = fs.join(spec.base_path, bucket, name)
        staged = fs.join(spec.base_path, bucket, in_progress_name(name)) \
            if self.in_progress_in_place else fs.join(self._staging, bucket, name)
        try:
            part = _OpenPart(spec.writer.open(fs.open_write(staged)), staged, final, now)
        except OSError as e:
            raise self.user_error(storage_error(e, staged, spec.base_path)) from None
        self._open[bucket] = part
        return part

    def _finish(self, bucket: str) -> None:
        part = self._open.pop(bucket)
        try:
            part.writer.finish()
        except OSError as e:
            part.writer.discard()
            raise self.user_error(storage_error(e, part.staged, self.spec.base_path)) from None
        self._committables.append((part.staged, part.final))

    def _roll_on_time(self, now: int) -> None:
        self._next_check = now + self.spec.bucket_check_interval
        for bucket in [b for b, p in self._open.items()
                       if self._rolling.should_roll_on_time(p.created, p.updated, now)]:
            self._finish(bucket)

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def end_input(self) -> None:
        for bucket in list(self._open):
            self._finish(bucket)
        for committable in self._committables:
            self.output.collect(committable, None)
        self._committables = []

    # -- the checkpoint lifecycle (base.py) ------------------------------------------------------

    def snapshot_state(self, context) -> dict:
        """Part naming (the subtask's name part and each bucket's counter): a re-run batch
        writes the same part names."""
        if self._open:
            raise RuntimeError("file sink %s has open parts at a checkpoint" % self.name)
        snap = super().snapshot_state(context)
        snap["sink"] = {"subtask_id": self._subtask_id, "counters": dict(self._counters)}
        return snap

    def restore_state(self, parts, context) -> None:
        """Parts are written as STREAMING's FileSink writes them (in progress beside their
        final names), named <prefix>-<uuid>-<n> with the uuid from the checkpoint's naming
        seed instead of chance, so a re-run of a batch writes the same part names (and its
        commit replaces what the first run may have published); a restored snapshot
        overrides it with the naming the subtask used before."""
        self.in_progress_in_place = True
        if self.spec.naming == "uuid":
            self._subtask_id = str(uuid.uuid5(uuid.NAMESPACE_OID, "%s/%s/%d/%s" % (
                context.naming_seed, context.state_id, context.subtask, context.version)))
        super().restore_state(parts, context)
        own = [s["sink"] for old, s in parts if old == context.subtask and "sink" in s]
        if own:
            self._subtask_id = own[0]["subtask_id"]
            self._counters = dict(own[0]["counters"])

    def end_batch(self, now: int) -> None:
        """Every part rolls; they are reported for the batch's commit."""
        self.end_input()

    def close(self) -> None:
        # after a failure: close what is open; the staging directory is removed by the driver
        for part in self._open.values():
            part.writer.discard()
        self._open = {}
