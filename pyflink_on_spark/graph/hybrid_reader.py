"""What a subtask of a HybridSource (specs.sources.HybridSourceSpec) does with a split.

Records Spark read (Kafka chunks, files Spark's readers decode) pass through, as for the
sources themselves; a file the task reads itself (FileToRead) is decoded by the format of
the FileSource whose paths hold it (the first such source, in the HybridSource's order)."""
from __future__ import annotations

import os
import posixpath
from typing import List, Tuple

from pyflink_on_spark.specs.sources import FileSourceSpec, FileToRead, HybridSourceSpec


def _root(uri: str) -> str:
    """A source path as FileToRead names local files (spark/file_source.normalize_path)."""
    if uri.startswith("file:"):
        return posixpath.normpath("/" + uri[5:].lstrip("/"))
    return uri if "://" in uri else os.path.abspath(uri)


class HybridSplitReader:
    def __init__(self, spec: HybridSourceSpec) -> None:
        from pyflink_on_spark.graph.sources import FileSplitReader
        self.readers: List[Tuple[Tuple[str, ...], FileSplitReader]] = [
            (tuple(_root(p) for p in source.paths), FileSplitReader(source.format))
            for source in spec.sources if isinstance(source, FileSourceSpec)]

    def _reader_of(self, path: str):
        path = posixpath.normpath(path)
        for roots, reader in self.readers:
            if any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots):
                return reader
        if len(self.readers) == 1:
            return self.readers[0][1]
        raise ValueError("HybridSource: %s is under none of its FileSources' paths" % path)

    def __call__(self, split):
        if isinstance(split, FileToRead):
            return self._reader_of(split.path)(split)
        return split
