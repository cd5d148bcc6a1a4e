"""pyflink.table.ListView / MapView (pyflink/table/data_view.py in PyFlink 1.20.5): the
collections a Python aggregate function's accumulator may hold, declared in
get_accumulator_type as DataTypes.LIST_VIEW / MAP_VIEW. PyFlink backs a declared view by
its state backend in STREAMING mode; here the accumulator (views and all) is one value of
the keyed aggregate's state (table/group_aggregates.py), pickled at each checkpoint: a view
is a plain list / dict, with PyFlink's methods and their behaviour (get of a missing key
raises KeyError, a ListView's __hash__ raises TypeError as hash of a list does)."""
from typing import Any, Dict, Iterable, Iterator, List, Tuple

from pyflink_on_spark.table.types import DataType

__all__ = ['DataView', 'ListView', 'MapView', 'ListViewType', 'MapViewType',
           'StateMapView', 'declared_views', 'with_state_views']


class DataView(object):
    """A collection of an accumulator (ListView, MapView)."""

    def clear(self) -> None:
        raise NotImplementedError


class ListView(DataView):
    """A list in an accumulator: get, add, add_all, clear, iteration."""

    def __init__(self):
        self._list = []

    def get(self) -> Iterable:
        return self._list

    def add(self, value) -> None:
        self._list.append(value)

    def add_all(self, values: List) -> None:
        self._list.extend(values)

    def clear(self) -> None:
        self._list = []

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ListView) and list(self) == list(other.get())

    def __hash__(self) -> int:
        return hash(self._list)     # PyFlink's: TypeError (unhashable list)

    def __iter__(self) -> Iterator:
        return iter(self.get())


class MapView(object):
    """A dict in an accumulator: get, put, put_all, remove, contains, items, keys, values,
    is_empty, clear, [key], `in`, iteration of the keys."""

    def __init__(self):
        self._dict = dict()

    def get(self, key):
        return self._dict[key]

    def put(self, key, value) -> None:
        self._dict[key] = value

    def put_all(self, dict_value: Dict) -> None:
        self._dict.update(dict_value)

    def remove(self, key) -> None:
        del self._dict[key]

    def contains(self, key) -> bool:
        return key in self._dict

    def items(self) -> Iterable[Tuple]:
        return self._dict.items()

    def keys(self) -> Iterable:
        return self._dict.keys()

    def values(self) -> Iterable:
        return self._dict.values()

    def is_empty(self) -> bool:
        return len(self._dict) == 0

    def clear(self) -> None:
        self._dict.clear()

    def __eq__(self, other: Any) -> bool:
        if other is None:
            return False
        if other.__class__ == MapView:
            return self._dict == other._dict
        return other is self

    __hash__ = None     # PyFlink's MapView defines __eq__ only: unhashable

    def __getitem__(self, key):
        return self.get(key)

    def __setitem__(self, key, value) -> None:
        self.put(key, value)

    def __delitem__(self, key) -> None:
        self.remove(key)

    def __contains__(self, key) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator:
        return iter(self.keys())


class ListViewType(DataType):
    """DataTypes.LIST_VIEW(element_type): only an accumulator type's field."""

    def __init__(self, element_type: DataType):
        assert isinstance(element_type, DataType), \
            "element_type %s should be an instance of %s" % (element_type, DataType)
        super().__init__(False)
        self._element_type = element_type

    def __repr__(self):
        return "ListViewType(%s)" % repr(self._element_type)



class MapViewType(DataType):
    """DataTypes.MAP_VIEW(key_type, value_type): only an accumulator type's field."""

    def __init__(self, key_type: DataType, value_type: DataType):
        assert isinstance(key_type, DataType), \
            "element_type %s should be an instance of %s" % (key_type, DataType)
        assert isinstance(value_type, DataType), \
            "element_type %s should be an instance of %s" % (value_type, DataType)
        super().__init__(False)
        self._key_type = key_type
        self._value_type = value_type

    def __repr__(self):
        return "MapViewType(%s, %s)" % (repr(self._key_type), repr(self._value_type))


class StateMapView(MapView):
    """A MAP_VIEW field of a declared accumulator type, as PyFlink's KeyedStateMapView
    behaves (its MapState's get): get / [key] of a missing key give None."""

    def get(self, key):
        return self._dict.get(key)


def declared_views(accumulator_type) -> tuple:
    """The indices of the MAP_VIEW fields of a ROW accumulator type (the state-backed views
    PyFlink puts in the accumulator); () for another type (a LIST_VIEW field behaves as a
    plain ListView)."""
    from pyflink_on_spark.table.types import RowType
    if not isinstance(accumulator_type, RowType):
        return ()
    return tuple(i for i, f in enumerate(accumulator_type.fields)
                 if isinstance(f.data_type, MapViewType))


def with_state_views(accumulator, indices: tuple):
    """A new accumulator with a StateMapView in each declared MAP_VIEW field (the entries the
    function's create_accumulator put in the view kept)."""
    for i in indices:
        view = StateMapView()
        given = accumulator[i]
        if isinstance(given, MapView):
            view._dict.update(given._dict)
        accumulator[i] = view
    return accumulator
