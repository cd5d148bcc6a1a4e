"""The driver's half of the file sink: publish the parts the tasks reported, only after the
job succeeded; remove the job's staging directory whatever happened."""
from __future__ import annotations

from typing import Iterable, Tuple

from pyflink_on_spark.codecs.files import fs
from pyflink_on_spark.codecs.files.spec import FileSinkSpec


class FileCommitter:
    def __init__(self, spec: FileSinkSpec) -> None:
        self.spec = spec

    def commit(self, committables: Iterable[Tuple[str, str]]) -> None:
        """Rename every reported part to its final path (parts of failed task attempts
        were never reported and go away with the staging directory)."""
        try:
            for staged, final in sorted(set(committables), key=lambda c: c[1]):
                fs.rename(staged, final)
        finally:
            fs.remove_tree(self.spec.staging_dir)

    def abort(self) -> None:
        fs.remove_tree(self.spec.staging_dir)
