"""Row and RowKind, checked against what PyFlink 1.20's Row does (observed with
tests/reference/probe_api.py on real PyFlink)."""
import copy
import pickle

import cloudpickle
import pytest

from pyflink_on_spark.common import Row, RowKind


def test_repr_positional_and_named():
    assert repr(Row(1, "a", None, 1.5)) == "<Row(1, 'a', None, 1.5)>"
    assert str(Row(1, "a")) == "<Row(1, 'a')>"
    # keyword order is kept (PyFlink 1.20 does not sort, despite its docstring)
    assert repr(Row(b=1, a="x")) == "Row(b=1, a='x')"
    assert Row(b=1, a="x")._fields == ['b', 'a']
    assert repr(Row(a=Row(1, 2), b=[Row(c=1)])) == "Row(a=<Row(1, 2)>, b=[Row(c=1)])"
    assert repr(Row.of_kind(RowKind.DELETE, a=1)) == "Row(a=1)"


def test_row_as_class():
    person = Row("a", "b")
    assert repr(person) == "<Row('a', 'b')>"
    assert repr(person(1, 2)) == "Row(a=1, b=2)"
    assert repr(person(1)) == "Row(a=1)"
    with pytest.raises(ValueError, match=r"Can not create Row with fields <Row\('a', 'b'\)>, "
                                         r"expected 2 values but got \(1, 2, 3\)"):
        person(1, 2, 3)
    # calling a named row uses its values as names, as PyFlink does
    assert repr(Row(a=1, b=2)(5, 6)) == "Row(1=5, 2=6)"
    assert Row.of_kind(RowKind.DELETE, "a", "b")(1, 2).get_row_kind() == RowKind.DELETE


def test_contains():
    assert "a" in Row(a=1)
    assert 1 in Row(1, 2)
    assert "a" in Row("a", "b")
    assert 1 not in Row(a=1)


def test_item_and_attribute_access():
    row = Row(a=1, b=2)
    assert (row["b"], row[0], row[-1], row.b) == (2, 1, 2, 2)
    assert Row(1, 2, 3)[1:] == [2, 3]
    with pytest.raises(ValueError, match="zz"):
        Row(a=1)["zz"]
    with pytest.raises(AttributeError, match="_fields"):
        Row(1, 2)["zz"]
    with pytest.raises(IndexError):
        Row(1, 2)[5]
    with pytest.raises(AttributeError, match="zz"):
        Row(a=1).zz
    with pytest.raises(AttributeError, match="_fields"):
        Row(1).zz
    with pytest.raises(AttributeError):
        Row(a=1)._private


def test_setting_values():
    row = Row(a=1, b=2)
    row["a"] = 5
    assert repr(row) == "Row(a=5, b=2)"
    positional = Row(1, 2)
    positional[0] = 5
    assert repr(positional) == "<Row(5, 2)>"
    with pytest.raises(ValueError, match="1"):
        Row(a=1)["zz"] = 1
    with pytest.raises(KeyError, match="zz"):
        Row(1)["zz"] = 1
    with pytest.raises(AttributeError):
        Row(a=1).a = 5  # attributes are read-only, as in PyFlink


def test_equality_and_hash():
    assert Row(1, 2) == Row(1, 2)
    assert Row(a=1, b=2) == Row(b=2, a=1)
    assert Row(1, 2) != (1, 2)
    assert Row(a=1) != Row(1)
    assert Row(1) != Row.of_kind(RowKind.DELETE, 1)
    assert Row(1) != Row(2)
    assert Row(a=1, b=2) != Row(a=1, c=2)
    assert hash(Row(1, 2)) == hash((1, 2))
    assert hash(Row(a=1)) == hash(Row(1))
    with pytest.raises(TypeError, match="unhashable type: 'list'"):
        hash(Row([1]))
    with pytest.raises(TypeError):
        Row(1) < Row(2)


def test_len_iter_bool():
    assert len(Row(1, 2)) == 2
    assert list(Row(a=1, b=2)) == [1, 2]
    assert tuple(Row(1, 2)) == (1, 2)
    assert (bool(Row()), bool(Row(0))) == (False, True)


def test_as_dict():
    assert Row(a=1, b=Row(c=2)).as_dict() == {'a': 1, 'b': Row(c=2)}
    assert Row(a=1, b=Row(c=2), d=[Row(e=3)], f={"k": Row(g=4)}).as_dict(True) == \
        {'a': 1, 'b': {'c': 2}, 'd': [{'e': 3}], 'f': {'k': {'g': 4}}}
    with pytest.raises(TypeError, match="Cannot convert a Row class into dict"):
        Row(1).as_dict()


def test_construction_errors_and_flags():
    with pytest.raises(ValueError, match="Can not use both args and kwargs to create Row"):
        Row(1, a=2)
    assert Row(a=1)._from_dict is True
    with pytest.raises(AttributeError, match="_from_dict"):
        Row(1)._from_dict


def test_row_kind():
    assert Row(1).get_row_kind() == RowKind.INSERT
    assert [str(k) for k in RowKind] == ['+I', '-U', '+U', '-D']
    assert repr(RowKind.DELETE) == '<RowKind.DELETE: 3>'
    row = Row(1)
    row.set_row_kind(RowKind.UPDATE_AFTER)
    assert row.get_row_kind() is RowKind.UPDATE_AFTER
    assert Row.of_kind(RowKind.DELETE, 1)._is_retract_msg()
    assert Row.of_kind(RowKind.UPDATE_AFTER, 1)._is_accumulate_msg()
    with pytest.raises(NotImplementedError, match="to_j_row_kind"):
        RowKind.INSERT.to_j_row_kind()


def test_fields_by_names():
    assert Row(a=1, b=2, c=3).get_fields_by_names(["c", "a"]) == [3, 1]
    with pytest.raises(Exception, match=r"Field names \['zz'\] not exist in \['a', 'b'\]\."):
        Row(a=1, b=2).get_fields_by_names(["zz"])
    assert Row(1, 2).get_fields_by_names(["zz"]) == [1, 2]
    row = Row(1, 2)
    row.set_field_names(["x", "y"])
    assert repr(row) == "Row(x=1, y=2)"


@pytest.mark.parametrize("dumps,loads", [(pickle.dumps, pickle.loads),
                                         (cloudpickle.dumps, cloudpickle.loads)])
def test_pickling_keeps_names_and_kind(dumps, loads):
    named = loads(dumps(Row.of_kind(RowKind.UPDATE_BEFORE, a=1, b="x")))
    assert repr(named) == "Row(a=1, b='x')"
    assert named.get_row_kind() == RowKind.UPDATE_BEFORE
    assert named._fields == ['a', 'b']
    positional = loads(dumps(Row(1, "x")))
    assert repr(positional) == "<Row(1, 'x')>"
    assert not hasattr(positional, "_fields")
    nested = loads(dumps([Row(a=Row(1), b=[Row(c=2)])]))
    assert nested == [Row(a=Row(1), b=[Row(c=2)])]


def test_copy_and_lean_storage():
    row = Row(a=[1])
    clone = copy.deepcopy(row)
    assert clone == row and clone["a"] is not row["a"]
    # per-record object: no __dict__
    assert not hasattr(Row(1), "__dict__")
