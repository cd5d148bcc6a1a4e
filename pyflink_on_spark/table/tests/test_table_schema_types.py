"""TableSchema's data types and builder (table/schema.py), as PyFlink 1.20.5 gives them (seen:
the same program printed the same lines on both)."""
from decimal import Decimal

import pytest

from pyflink_on_spark.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_on_spark.table.table_schema import TableSchema


def test_field_data_types_by_index_and_name_with_their_nullability():
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    schema = t_env.from_elements([(1, "a", Decimal("1.50"))], DataTypes.ROW([
        DataTypes.FIELD("a", DataTypes.INT(False)), DataTypes.FIELD("s", DataTypes.STRING()),
        DataTypes.FIELD("d", DataTypes.DECIMAL(10, 2))])).get_schema()
    assert [repr(t) for t in schema.get_field_data_types()] == [
        "IntType(false)", "VarCharType(2147483647, true)", "DecimalType(10, 2, true)"]
    assert repr(schema.get_field_data_type(1)) == "VarCharType(2147483647, true)"
    assert repr(schema.get_field_data_type("d")) == "DecimalType(10, 2, true)"
    assert schema.get_field_data_type(7) is None and schema.get_field_data_type("zz") is None
    with pytest.raises(TypeError, match="Expected field index or field name, got <class "
                                        "'float'>"):
        schema.get_field_data_type(1.5)
    assert repr(schema.to_row_data_type()) == (
        "RowType(RowField(a, IntType(false), ...),RowField(s, VarCharType(2147483647, true), "
        "...),RowField(d, DecimalType(10, 2, true), ...))")
    assert schema.copy() == schema
    query = t_env.sql_query("SELECT a + 1 AS b, CAST(d AS DOUBLE) AS e FROM %s"
                            % t_env.from_elements([(1, Decimal("1.50"))], ["a", "d"]))
    assert [repr(t) for t in query.get_schema().get_field_data_types()] == [
        "BigIntType(true)", "DoubleType(true)"]


def test_the_builder_keeps_the_fields_in_order():
    schema = TableSchema.builder().field("x", DataTypes.BIGINT()) \
        .field("y", DataTypes.STRING()).build()
    assert schema.get_field_names() == ["x", "y"]
    assert str(schema) == "root\n |-- x: BIGINT\n |-- y: STRING\n"
