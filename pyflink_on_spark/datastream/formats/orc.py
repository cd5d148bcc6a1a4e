"""ORC (mirror of pyflink.datastream.formats.orc): written by the file sink's subtasks with
pyarrow's ORC writer."""
from __future__ import annotations

from typing import Optional, TYPE_CHECKING

from pyflink_on_spark.common.configuration import Configuration
from pyflink_on_spark.common.serialization import BulkWriterFactory, RowDataBulkWriterFactory
from pyflink_on_spark.codecs.formats.fields import from_data_type

if TYPE_CHECKING:
    from pyflink_on_spark.table.types import RowType

__all__ = [
    'OrcBulkWriters'
]


class OrcBulkWriters(object):
    """BulkWriterFactory writing Rows of a row type into ORC files."""

    @staticmethod
    def for_row_type(row_type: 'RowType',
                     writer_properties: Optional[Configuration] = None,
                     hadoop_config: Optional[Configuration] = None) -> BulkWriterFactory:
        from pyflink_on_spark.table.types import RowType
        from pyflink_on_spark.codecs.files.writers import ArrowBulkFormat
        if not isinstance(row_type, RowType):
            raise TypeError('row_type must be an instance of RowType')
        return RowDataBulkWriterFactory(ArrowBulkFormat("orc", from_data_type(row_type)),
                                        row_type)
