"""INSERT INTO print and blackhole tables (issue 44): execute_sql('INSERT INTO ... SELECT'),
Table.execute_insert, a statement set; print-identifier; Flink's text of each column type;
the TableResult of an insert (its schema, wait()). (Two inserts of one statement set
that print race on PyFlink: one prints, the other goes to a blackhole.)"""
import datetime
from decimal import Decimal

from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

t_env.execute_sql("""
    CREATE TABLE orders (id BIGINT, name STRING, price DOUBLE) WITH (
        'connector' = 'datagen',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '5',
        'fields.name.kind' = 'sequence', 'fields.name.start' = '10', 'fields.name.end' = '14',
        'fields.price.kind' = 'sequence', 'fields.price.start' = '1', 'fields.price.end' = '5')""")
t_env.execute_sql("CREATE TABLE out_plain (id BIGINT, name STRING, price DOUBLE) "
                  "WITH ('connector' = 'print')")
result = t_env.execute_sql("INSERT INTO out_plain SELECT id, name, price * 1e3 FROM orders")
result.wait()
print(result.get_result_kind())
print(type(result.get_job_client().get_job_execution_result().result()).__name__)
print(result.get_table_schema())

t_env.execute_sql("CREATE TABLE labelled (id INT, label STRING) "
                  "WITH ('connector' = 'print', 'print-identifier' = 'orders')")
t_env.execute_sql("INSERT INTO labelled SELECT CAST(id AS INT), CONCAT('n,\"', name, ' x') "
                  "FROM orders WHERE id > 2").wait()

t_env.execute_sql("CREATE TABLE nothing (id BIGINT) WITH ('connector' = 'blackhole')")
t_env.execute_sql("INSERT INTO nothing SELECT id FROM orders").wait()
print("blackhole done")

typed = t_env.from_elements(
    [(1, True, 1.5, 2.25, Decimal("1.20"), datetime.date(2024, 1, 2),
      datetime.datetime(2024, 1, 2, 3, 4, 5, 120000), "x y", None),
     (2, False, 1e10, 1e-5, Decimal("-3.00"), datetime.date(1999, 12, 31),
      datetime.datetime(2024, 1, 2, 3, 4), "", "q")],
    DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()),
                   DataTypes.FIELD("b", DataTypes.BOOLEAN()),
                   DataTypes.FIELD("f", DataTypes.FLOAT()),
                   DataTypes.FIELD("d", DataTypes.DOUBLE()),
                   DataTypes.FIELD("dec", DataTypes.DECIMAL(10, 2)),
                   DataTypes.FIELD("dt", DataTypes.DATE()),
                   DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
                   DataTypes.FIELD("s", DataTypes.STRING()),
                   DataTypes.FIELD("n", DataTypes.STRING())]))
t_env.execute_sql("CREATE TABLE typed_out (a INT, b BOOLEAN, f FLOAT, d DOUBLE, "
                  "`dec` DECIMAL(10, 2), dt DATE, ts TIMESTAMP(3), s STRING, n STRING) "
                  "WITH ('connector' = 'print')")
typed.execute_insert("typed_out").wait()

statements = t_env.create_statement_set()
statements.add_insert_sql("INSERT INTO labelled SELECT CAST(id AS INT), name FROM orders "
                          "WHERE id < 3")
t_env.create_temporary_view("typed", typed)
statements.add_insert("nothing", t_env.sql_query("SELECT CAST(a AS BIGINT) FROM typed"))
result = statements.execute()
result.wait()
print(result.get_table_schema())
