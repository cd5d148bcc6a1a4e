"""pyflink.common.types mirror: Row and RowKind.

Row is created per record, so it keeps its state in four slots and has no __dict__. Its
behaviour (repr, equality, hashing, errors) follows PyFlink 1.20's Row exactly; the observed
PyFlink results are asserted in tests/test_types.py.
"""
from enum import Enum
from typing import List, Optional

from pyflink_on_spark.common.utils import no_jvm

__all__ = ['Row', 'RowKind']


class RowKind(Enum):
    """Kind of change a row describes in a changelog."""
    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def __str__(self):
        return _ROW_KIND_SHORT[self.value]

    def to_j_row_kind(self):
        no_jvm("RowKind.to_j_row_kind()")


# Flink's RowKind.shortString(), used by Row printing ("+I[1,a]").
_ROW_KIND_SHORT = ('+I', '-U', '+U', '-D')
_INSERT = RowKind.INSERT


def _create_row(fields: Optional[List], values, row_kind: Optional[RowKind] = None) -> 'Row':
    """Build a Row without going through __init__ (used by pickling and __call__)."""
    row = Row.__new__(Row)
    row._values = list(values)
    if fields is not None:
        row._fields = fields
    row._row_kind = row_kind if row_kind is not None else _INSERT
    return row


class Row(object):
    """A row of fields, accessible by position, by name (``row['a']``) or as attributes.

    ``Row(1, 'a')`` is a positional row; ``Row(name='Alice', age=11)`` a named one (fields keep
    the keyword order). ``Row('name', 'age')`` used as a class: ``Row('name', 'age')('Alice', 11)``
    gives ``Row(name='Alice', age=11)``.
    """

    # _fields and _from_dict are only set on named rows: PyFlink tells named and positional
    # rows apart with hasattr(row, '_fields'), and an unset slot behaves the same way.
    __slots__ = ('_values', '_fields', '_row_kind', '_from_dict')

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            self._fields = list(kwargs.keys())
            self._values = list(kwargs.values())
            self._from_dict = True
        else:
            self._values = list(args)
        self._row_kind = _INSERT

    def as_dict(self, recursive: bool = False) -> dict:
        """The row as a dict of field name -> value (nested rows too when recursive)."""
        if not hasattr(self, "_fields"):
            raise TypeError("Cannot convert a Row class into dict")
        if recursive:
            def conv(obj):
                if isinstance(obj, Row):
                    return obj.as_dict(True)
                if isinstance(obj, list):
                    return [conv(o) for o in obj]
                if isinstance(obj, dict):
                    return dict((k, conv(v)) for k, v in obj.items())
                return obj
            return dict(zip(self._fields, (conv(o) for o in self._values)))
        return dict(zip(self._fields, self._values))

    def get_row_kind(self) -> RowKind:
        return self._row_kind

    def set_row_kind(self, row_kind: RowKind) -> None:
        self._row_kind = row_kind

    def set_field_names(self, field_names: List) -> None:
        self._fields = field_names

    def get_fields_by_names(self, names: List[str]) -> List:
        """Values of the given fields in the given order (all values if the row is unnamed)."""
        if not hasattr(self, '_fields') or names == self._fields:
            return self._values
        difference = list(set(names).difference(set(self._fields)))
        if difference:
            raise Exception("Field names {0} not exist in {1}.".format(difference, self._fields))
        fields = self._fields
        return [self._values[fields.index(name)] for name in names]

    def _is_retract_msg(self) -> bool:
        return self._row_kind is RowKind.UPDATE_BEFORE or self._row_kind is RowKind.DELETE

    def _is_accumulate_msg(self) -> bool:
        return self._row_kind is RowKind.UPDATE_AFTER or self._row_kind is RowKind.INSERT

    @staticmethod
    def of_kind(row_kind: RowKind, *args, **kwargs) -> 'Row':
        row = Row(*args, **kwargs)
        row._row_kind = row_kind
        return row

    def __contains__(self, item) -> bool:
        fields = getattr(self, '_fields', None)
        if fields is not None:
            return item in fields
        return item in self._values

    def __call__(self, *args) -> 'Row':
        """Use this row's values as field names for a new row of the given values."""
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values "
                             "but got %s" % (self, len(self), args))
        # Like PyFlink, the new row's field-name list is this row's value list itself.
        return _create_row(self._values, args, self._row_kind)

    def __getitem__(self, item):
        if isinstance(item, (int, slice)):
            return self._values[item]
        try:
            idx = self._fields.index(item)
        except IndexError:
            raise KeyError(item)
        except ValueError:
            raise ValueError(item)
        return self._values[idx]

    def __setitem__(self, key, value) -> None:
        if isinstance(key, (int, slice)):
            self._values[key] = value
            return
        try:
            idx = self._fields.index(key)
        except (IndexError, AttributeError):
            raise KeyError(key)
        except ValueError:
            raise ValueError(value)
        self._values[idx] = value

    def __getattr__(self, item):
        # Only reached for names that are not slots (or for unset slots such as _fields).
        if item.startswith("_"):
            raise AttributeError(item)
        try:
            idx = self._fields.index(item)
        except ValueError:
            raise AttributeError(item)
        return self._values[idx]

    def __reduce__(self):
        return _create_row, (getattr(self, '_fields', None), tuple(self._values), self._row_kind)

    def __repr__(self):
        fields = getattr(self, '_fields', None)
        if fields is not None:
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(fields, self._values))
        return "<Row(%s)>" % ", ".join(repr(field) for field in self._values)

    def __eq__(self, other):
        if not isinstance(other, Row):
            return False
        if self.__class__ != other.__class__ or self._row_kind != other._row_kind:
            return False
        fields = getattr(self, '_fields', None)
        other_fields = getattr(other, '_fields', None)
        if fields is None:
            return other_fields is None and self._values == other._values
        if other_fields is None:
            return False
        if fields == other_fields:
            return self._values == other._values
        # named rows are equal when they hold the same name -> value pairs in any order
        sorted_fields = sorted(fields)
        if sorted_fields != sorted(other_fields):
            return False
        return [self._values[fields.index(n)] for n in sorted_fields] == \
            [other._values[other_fields.index(n)] for n in sorted_fields]

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(tuple(self._values))

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)
