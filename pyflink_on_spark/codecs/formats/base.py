"""What a file source format tells the Spark layer (spark/file_source.py)."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence


class FileRecordFormat:
    """Describes how Spark reads a file format and how its rows become PyFlink records.

    Methods named ``decode_*`` run inside Spark tasks; instances must pickle.
    """

    #: Spark data source name (``spark.read.format(...)``)
    spark_source = "text"
    #: (data source name, Maven artifact without version) when Spark needs an extra package
    spark_package: Optional[str] = None

    def spark_options(self) -> Dict[str, str]:
        return {}

    def spark_schema(self) -> Optional[str]:
        """DDL schema given to the reader (None: the reader's own)."""
        return None

    def spark_columns(self) -> List[str]:
        """Columns selected from the reader, in the order decode_batch receives them."""
        return ["value"]

    def decodes_whole_file(self, path: str) -> bool:
        """True for files Spark's reader cannot decode as PyFlink does: they are read as
        bytes (Spark's binaryFile source) and decoded by decode_file."""
        return False

    def decode_batch(self, batch) -> list:
        """A pyarrow RecordBatch of spark_columns() (rows of one file, in file order) ->
        the records, in order."""
        raise NotImplementedError

    def decode_file(self, path: str, content: bytes) -> Sequence:
        raise NotImplementedError("%s cannot decode whole files" % type(self).__name__)
