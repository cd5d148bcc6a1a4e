"""from_changelog_stream in STREAMING mode at parallelism 1 (cc3213252/pyflink-learn's
from_changelog_stream.py, widened): the table's rows are the stream's Rows with their
RowKinds; a GROUP BY over it retracts (-D when a group's rows are all retracted, then +I);
a projection / filter keeps each change's kind; upsert mode with a primary key normalizes
the changes (-U / +U of a known key, -D with its last row); print_schema shows the key."""
from pyflink.common import Row, RowKind
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import ChangelogMode, Schema, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
I, UB, UA, D = RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE


def stream(changes):
    return env.from_collection([Row.of_kind(kind, *values) for kind, *values in changes],
                               type_info=Types.ROW([Types.STRING(), Types.INT()]))


def show(table):
    with table.execute().collect() as rows:
        for r in rows:
            print(r.get_row_kind(), repr(r))


table = t_env.from_changelog_stream(stream([
    (I, "Alice", 12), (I, "Bob", 5), (UB, "Alice", 12), (UA, "Alice", 100), (I, "Alice", 3),
    (D, "Bob", 5), (I, "Carl", None), (D, "Zed", 1)]))
table.print_schema()
show(table)
t_env.create_temporary_view("t", table)
for q in ["SELECT f0 AS name, SUM(f1) AS score FROM t GROUP BY f0",
          "SELECT f0, COUNT(*) AS c, COUNT(f1) AS n, AVG(f1) AS a, MIN(f1) AS lo FROM t "
          "GROUP BY f0",
          "SELECT COUNT(*) AS c, SUM(f1) AS s FROM t",
          "SELECT f0, f1 * 2 AS d FROM t WHERE f1 > 4"]:
    print(q)
    show(t_env.sql_query(q))
print(t_env.sql_query("SELECT * FROM t WHERE f0 <> 'Zed'").to_pandas())

upsert = t_env.from_changelog_stream(stream([
    (I, "Alice", 12), (I, "Bob", 5), (UA, "Alice", 100), (UA, "Alice", 100), (UA, "Dan", 1),
    (D, "Bob", 0), (D, "Zed", 3), (UB, "Dan", 1), (I, "Alice", 7)]),
    Schema.new_builder().primary_key("f0").build(), ChangelogMode.upsert())
upsert.print_schema()
show(upsert)
t_env.create_temporary_view("u", upsert)
show(t_env.sql_query("SELECT COUNT(*) AS c, SUM(f1) AS s FROM u"))
changes = t_env.to_changelog_stream(upsert)
changes.map(lambda r: '%s %r' % (r.get_row_kind(), r), output_type=Types.STRING()).print()
env.execute("from_changelog")
