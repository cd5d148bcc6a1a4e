"""The driver's half of the file sink: publish the parts the tasks reported, only after the
job succeeded; remove the job's staging directory whatever happened."""
from __future__ import annotations

from typing import Iterable, Tuple

from pyflink_on_spark.codecs.files import fs, staging


class FileCommitter:
    """`spec`: the sink's specs.sinks.FileSinkSpec (only its staging_dir is used)."""

    def __init__(self, spec) -> None:
        self.spec = spec
        self._claimed = False

    def prepare(self) -> None:
        """On the driver before the job runs: remove what crashed runs left in the base
        directory, then mark the staging directory as this process's (codecs/files/staging)."""
        if not self._claimed:
            staging.remove_abandoned(self.spec.base_path)
            staging.claim(self.spec.staging_dir)
            self._claimed = True

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
