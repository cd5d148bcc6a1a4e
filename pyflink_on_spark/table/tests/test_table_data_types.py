"""pyflink.table's data types (DataStream formats take them too) and what of the package
resolves through the `pyflink` alias."""
import pytest

from pyflink_on_spark.table.types import DataTypes, RowField, RowType


def test_data_types_build_row_types():
    row = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()),
                         DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING()))])
    assert isinstance(row, RowType)
    assert row.field_names() == ["id", "tags"]
    assert [f.name for f in row] == ["id", "tags"]
    assert row["tags"].data_type == DataTypes.ARRAY(DataTypes.STRING())
    assert row[0] == RowField("id", DataTypes.INT())
    assert DataTypes.DECIMAL(10, 2).scale == 2
    assert DataTypes.INT().not_null()._nullable is False
    assert str(DataTypes.BIGINT()) == "BIGINT"


def test_table_api_classes_that_do_not_run_fail_at_the_import():
    import pyflink_on_spark.table as table
    assert table.DataTypes is DataTypes
    with pytest.raises(ImportError, match="ModuleEntry is not supported"):
        from pyflink_on_spark.table import ModuleEntry  # noqa: F401


def test_the_pyflink_alias_resolves_the_table_modules_that_run():
    from pyflink_on_spark.aliasing import install_pyflink_alias
    install_pyflink_alias()
    import importlib
    assert importlib.import_module("pyflink.table.types").DataTypes is DataTypes
    assert importlib.import_module("pyflink.table.expressions").col("a").sql == "`a`"
    with pytest.raises(ModuleNotFoundError, match="part of the Table API is not supported"):
        importlib.import_module("pyflink.table.catalog")
