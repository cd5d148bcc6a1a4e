"""What parse_statement returns: one frozen dataclass per kind of Flink SQL statement."""
from dataclasses import dataclass
from typing import Mapping, Optional, Tuple

__all__ = ['Metadata', 'Column', 'Watermark', 'CreateTable', 'CreateView', 'DropTable',
           'DropView', 'Insert', 'Query']


@dataclass(frozen=True)
class Metadata:
    """`METADATA [FROM 'key'] [VIRTUAL]` of a column: key None means the column's name."""
    key: Optional[str] = None
    virtual: bool = False


@dataclass(frozen=True)
class Column:
    """A column of CREATE TABLE: physical (expression and metadata None), computed
    (`name AS expression`: data_type None, expression the SQL text) or metadata."""
    name: str
    data_type: Optional[str]          # Flink's summary form, e.g. 'INT NOT NULL', 'TIMESTAMP(3)'
    expression: Optional[str] = None
    metadata: Optional[Metadata] = None
    comment: Optional[str] = None

    @property
    def is_physical(self) -> bool:
        return self.expression is None and self.metadata is None


@dataclass(frozen=True)
class Watermark:
    """`WATERMARK FOR column AS expression` (the expression as SQL text)."""
    column: str
    expression: str


@dataclass(frozen=True)
class CreateTable:
    name: str
    columns: Tuple[Column, ...]
    watermark: Optional[Watermark]
    primary_key: Tuple[str, ...]
    options: Mapping[str, str]
    temporary: bool = False
    if_not_exists: bool = False
    partition_keys: Tuple[str, ...] = ()
    comment: Optional[str] = None

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def physical_columns(self) -> Tuple[Column, ...]:
        return tuple(c for c in self.columns if c.is_physical)


@dataclass(frozen=True)
class CreateView:
    name: str
    query: str
    temporary: bool = False
    if_not_exists: bool = False
    column_names: Tuple[str, ...] = ()


@dataclass(frozen=True)
class DropTable:
    name: str
    temporary: bool = False
    if_exists: bool = False


@dataclass(frozen=True)
class DropView:
    name: str
    temporary: bool = False
    if_exists: bool = False


@dataclass(frozen=True)
class Insert:
    target: str
    query: str
    overwrite: bool = False
    column_names: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Query:
    sql: str
