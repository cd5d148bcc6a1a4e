"""ARRAY, MAP and ROW columns of a stream's LIST, BASIC_ARRAY, PRIMITIVE_ARRAY, MAP and ROW
fields: their types as Flink converts them (in a Row, in a tuple, alone), their values in
collect() (a ROW as Row([values])), to_data_stream (the stream's own type for the table
from_data_stream gave, ObjectArrayTypeInfo after a query), print() and to_pandas(); SQL
element access (from 1, NULL past the end), a map's value by key, a ROW's field by name,
CARDINALITY, and an index below 1 refused."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
row_type = Types.ROW_NAMED(
    ["k", "a", "b", "c", "d", "e", "f", "g"],
    [Types.STRING(), Types.MAP(Types.INT(), Types.DOUBLE()), Types.BASIC_ARRAY(Types.INT()),
     Types.LIST(Types.STRING()), Types.MAP(Types.STRING(), Types.BASIC_ARRAY(Types.STRING())),
     Types.LIST(Types.BOOLEAN()), Types.PRIMITIVE_ARRAY(Types.LONG()),
     Types.ROW_NAMED(["p", "q"], [Types.INT(), Types.LIST(Types.INT())])])
rows = [Row("a", {1: 1.5}, [1, 2], ["x", "y"], {"u": ["v"]}, [True], [5, 6], Row(1, [2, 3])),
        Row("b", {}, [3], [], {}, [], [], Row(2, [4]))]
t = t_env.from_data_stream(env.from_collection(rows, row_type))
t.print_schema()
t_env.create_temporary_view("t", t)
t_env.from_data_stream(env.from_collection([], Types.TUPLE(
    [Types.LIST(Types.STRING()), Types.MAP(Types.LONG(), Types.LIST(Types.DOUBLE())),
     Types.BASIC_ARRAY(Types.BOOLEAN()), Types.PRIMITIVE_ARRAY(Types.INT()),
     Types.ROW_NAMED(["p"], [Types.INT()]), Types.LIST(Types.ROW_NAMED(["p"], [Types.INT()])),
     Types.LIST(Types.SQL_TIMESTAMP())]))).print_schema()
t_env.from_data_stream(env.from_collection([], Types.MAP(Types.STRING(), Types.INT()))) \
    .print_schema()

with t.execute().collect() as results:
    for r in results:
        print("collect", r, type(r[7]).__name__, r[7].get_row_kind())
direct = t_env.to_data_stream(t)
print(direct.get_type())
with direct.execute_and_collect() as results:
    print("stream", [str(r) for r in results])
t.execute().print()
# (a MAP of nullable keys, d, fails to_pandas on PyFlink: Map key type should be non-nullable)
pdf = t_env.sql_query("SELECT k, a, b, c, e, f, g FROM t").to_pandas()
print([repr(v) for v in pdf.iloc[0]])

# (not compared: an ARRAY<INT NOT NULL>'s element past its end or of a NULL array, -1 on
# PyFlink where an ARRAY<INT>'s is NULL; a NULL ARRAY in to_data_stream, which fails there)
with t_env.sql_query("SELECT k, b[1], b[2], b[3], c[1], a[1], a[7], d['u'], g.p, g.q, "
                     "g.q[1], CARDINALITY(b), CARDINALITY(a) FROM t").execute().collect() as rs:
    print("access", [str(r) for r in rs])
for query in [
              "SELECT k, b, a, g FROM t WHERE CARDINALITY(b) > 1",
              "SELECT g.q[1] + 1 AS q1, d['u'][1] AS u1, k FROM t WHERE a[1] IS NULL",
              "SELECT g, k, c, b, a, f FROM t WHERE k = 'a' UNION ALL SELECT g, k, c, b, a, f "
              "FROM t WHERE k = 'b'"]:
    table = t_env.sql_query(query)
    table.print_schema()
    with table.execute().collect() as results:
        print(query, "->", [str(r) for r in results])
    stream = t_env.to_data_stream(table)
    print(stream.get_type())
    with stream.execute_and_collect() as results:
        print(query, "stream ->", [str(r) for r in results])
for query in ["SELECT k, b[0] FROM t", "SELECT k, c[-1] FROM t"]:
    try:
        with t_env.sql_query(query).execute().collect() as results:
            print(query, "->", [str(r) for r in results])
    except Exception as e:
        print(query, "-> refused:", "Array element access needs an index starting at 1" in str(e))

nullable = t_env.from_data_stream(env.from_collection(
    [Row("a", [1]), Row("b", None)],
    Types.ROW_NAMED(["k", "xs"], [Types.STRING(), Types.LIST(Types.INT())])))
t_env.create_temporary_view("n", nullable)
with t_env.sql_query("SELECT k, xs, CARDINALITY(xs) FROM n").execute().collect() as rs:
    print("nullable", [str(r) for r in rs])
