"""Flink's result types and values of DECIMAL / integer / approximate arithmetic in SQL
(precision and scale per Flink's decimal rules, the 38-digit adjustment, NULL for a DECIMAL
product beyond 38 digits, integers widened, CASE / COALESCE common types, ROUND), and the
error sql_query raises for `+` of two strings."""
from decimal import Decimal

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
schema = DataTypes.ROW([
    DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("d1", DataTypes.DECIMAL(10, 2)),
    DataTypes.FIELD("d2", DataTypes.DECIMAL(5, 3)), DataTypes.FIELD("i", DataTypes.INT()),
    DataTypes.FIELD("b", DataTypes.BIGINT()), DataTypes.FIELD("t", DataTypes.TINYINT()),
    DataTypes.FIELD("f", DataTypes.FLOAT()), DataTypes.FIELD("d38", DataTypes.DECIMAL(38, 10)),
    DataTypes.FIELD("d0", DataTypes.DECIMAL(20, 0))])
rows = [("ab", Decimal("12.34"), Decimal("1.500"), 7, 3, 2, 1.25,
         Decimal("1234567890.0123456789"), Decimal("99999999999999999999")),
        ("x", Decimal("-0.07"), Decimal("3.000"), -9, 4, -3, 0.5,
         Decimal("-0.0000000001"), Decimal("1"))]
t_env.create_temporary_view("t", t_env.from_elements(rows, schema))

queries = [
    "SELECT d1 + d2, d1 - d2, d1 * d2, d1 / d2, d1 % d2, MOD(i, d1) FROM t",
    "SELECT d1 + i, d1 * i, d1 / i, i / d1, d1 + b, d1 * b, d1 - t FROM t",
    "SELECT d1 + 1, d1 * 2, d1 / 3, d1 + 1.5, d1 * 2.25, 2 * 3.5 FROM t",
    "SELECT d38 * d38, d38 + d38, d38 / d2, d0 * d0, d0 / 7 FROM t",
    "SELECT i + b, i / b, b % i, t * t, t + t, f + i, f + d1, d1 + 1e0 FROM t",
    "SELECT CASE WHEN i > 1 THEN d1 ELSE i END, COALESCE(d1, b), CASE WHEN i > 1 THEN t "
    "ELSE b END, ROUND(d1 / 3, 2), -d1 FROM t",
]
for query in queries:
    table = t_env.sql_query(query)
    table.print_schema()
    with table.execute().collect() as results:
        for row in results:
            print(row)
try:
    t_env.sql_query("SELECT s + s FROM t")
except Exception as e:
    print("refused:", "Cannot apply '+' to arguments of type '<VARCHAR(2147483647)> + "
          "<VARCHAR(2147483647)>'" in str(e))

# the Table API's + of two expressions is Flink's plus: a string on the left concatenates
from pyflink.table.expressions import col
table = t_env.from_path("t").select(col("s") + col("s"), col("s") + col("i"), col("i") + col("b"))
table.print_schema()
with table.execute().collect() as results:
    for row in results:
        print(row)
try:
    t_env.from_path("t").select(col("i") + col("s"))
except Exception as e:
    print("refused:", "Invalid function call:\nplus(INT, STRING)" in str(e))
