"""ListView / MapView in a Python aggregate function's accumulator (table/data_view.py):
PyFlink 1.20.5's methods, kept in the keyed aggregate's state (pickled), driven through the
keyed function without Spark."""
import pickle

import pytest

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.table import DataTypes, ListView, MapView
from pyflink_on_spark.table.data_view import ListViewType, MapViewType
from pyflink_on_spark.table.group_aggregates import group_aggregate
from pyflink_on_spark.table.sql.grouping import split_grouping
from pyflink_on_spark.table.udf import AggregateFunction, udaf


def test_list_view_methods_as_pyflinks():
    view = ListView()
    view.add(1)
    view.add_all([2, 3])
    assert list(view) == [1, 2, 3] and list(view.get()) == [1, 2, 3]
    other = ListView()
    other.add_all([1, 2, 3])
    assert view == other and view != ListView() and view != [1, 2, 3]
    with pytest.raises(TypeError):
        hash(view)          # PyFlink's hash of its list
    view.clear()
    assert list(view) == []


def test_map_view_methods_as_pyflinks():
    view = MapView()
    view.put("x", 1)
    view["y"] = 2
    view.put_all({"z": 3})
    view.remove("x")
    del view["z"]
    assert list(view) == ["y"] and dict(view.items()) == {"y": 2}
    assert list(view.keys()) == ["y"] and list(view.values()) == [2]
    assert "y" in view and view.contains("y") and not view.contains("x")
    assert view.get("y") == 2 and view["y"] == 2 and not view.is_empty()
    with pytest.raises(KeyError):
        view.get("x")
    view.clear()
    assert view.is_empty() and view != None  # noqa: E711


def test_view_types_print_as_pyflinks():
    assert str(DataTypes.LIST_VIEW(DataTypes.STRING())) == "LISTVIEW"
    assert str(DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.INT())) == "MAPVIEW"
    assert isinstance(DataTypes.LIST_VIEW(DataTypes.INT()), ListViewType)
    assert repr(DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.INT())).startswith(
        "MapViewType(")
    with pytest.raises(AssertionError):
        DataTypes.LIST_VIEW("STRING")


def test_an_accumulator_with_views_pickles_with_its_contents():
    acc = Row(ListView(), MapView(), "x")
    acc[0].add("a")
    acc[1].put("k", 2)
    back = pickle.loads(pickle.dumps(acc))
    assert list(back[0]) == ["a"] and dict(back[1].items()) == {"k": 2} and back[2] == "x"


class Concat(AggregateFunction):
    def create_accumulator(self):
        return Row(ListView(), MapView())

    def accumulate(self, acc, s):
        acc[0].add(s)
        acc[1].put(s, (acc[1].get(s) if s in acc[1] else 0) + 1)

    def get_value(self, acc):
        return "%s/%d" % (",".join(acc[0]), len(list(acc[1].keys())))

    def get_accumulator_type(self):
        return DataTypes.ROW([
            DataTypes.FIELD("f0", DataTypes.LIST_VIEW(DataTypes.STRING())),
            DataTypes.FIELD("f1", DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.BIGINT()))])

    def get_result_type(self):
        return DataTypes.STRING()


def test_a_udaf_with_views_in_the_keyed_aggregate_across_bundles():
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.runtime.operators.bundled_aggregate import BundleOperator
    from pyflink_on_spark.runtime.testing import OperatorHarness
    concat = udaf(Concat())
    functions = {"concat": concat}
    function = group_aggregate(["k", "c"], split_grouping(
        "SELECT k, concat(s) FROM t GROUP BY k", functions), ["STRING", "STRING"],
        ["STRING", "STRING"], functions, {})
    harness = OperatorHarness(BundleOperator(function, wrap_key_selector(
        lambda row: (row[0],))))
    harness.element(("a", "x")).element(("b", "y")).element(("a", "y"))
    harness.operator.end_batch(0)           # a micro-batch's end: the bundle ends
    harness.element(("a", "x"))
    harness.end()
    assert [(str(r.get_row_kind()), tuple(r)) for r in harness.take()] == [
        ("+I", ("a", "x,y/2")), ("+I", ("b", "y/1")),
        ("-U", ("a", "x,y/2")), ("+U", ("a", "x,y,x/2"))]


class Seen(AggregateFunction):
    """get of a missing key: None in a declared MAP_VIEW field (PyFlink's state view)."""

    def create_accumulator(self):
        return Row(MapView(), ListView())

    def accumulate(self, acc, s):
        acc[0].put(s, (acc[0].get(s) or 0) + 1)
        acc[1].add(s)

    def get_value(self, acc):
        return ",".join("%s=%d" % kv for kv in acc[0].items())

    def get_accumulator_type(self):
        return DataTypes.ROW([
            DataTypes.FIELD("f0", DataTypes.MAP_VIEW(DataTypes.STRING(), DataTypes.BIGINT())),
            DataTypes.FIELD("f1", DataTypes.LIST_VIEW(DataTypes.STRING()))])

    def get_result_type(self):
        return DataTypes.STRING()


def test_a_declared_map_view_field_gives_none_for_a_missing_key_as_pyflinks_state_view():
    from pyflink_on_spark.table.data_view import StateMapView, declared_views
    seen = udaf(Seen())
    assert declared_views(seen._accumulator_type) == (0,)
    assert declared_views(DataTypes.ARRAY(DataTypes.STRING())) == ()
    functions = {"seen": seen}
    function = group_aggregate(["k", "c"], split_grouping(
        "SELECT k, seen(s) FROM t GROUP BY k", functions), ["STRING", "STRING"],
        ["STRING", "STRING"], functions, {})
    acc = function.aggregates[0].initial()
    assert isinstance(acc[0], StateMapView) and acc[0].get("nope") is None
    assert type(acc[1]) is ListView
    for s in ["b", "a", "b"]:
        acc = function.aggregates[0].add(acc, ("k", s))
    assert function.aggregates[0].value(acc) == "b=2,a=1"     # insertion order (seen)
    assert pickle.loads(pickle.dumps(acc))[0].get("b") == 2
    plain = MapView()
    with pytest.raises(KeyError):
        plain.get("nope")           # a MapView outside a declared field: PyFlink's KeyError
