"""filesystem tables (issue 44): INSERT INTO csv / json tables (the files PyFlink writes: their
names and lines), then the same tables read back as sources: a query, to_data_stream."""
import os
import re
import shutil
import tempfile

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
root = tempfile.mkdtemp()

t_env.execute_sql("""
    CREATE TABLE orders (id BIGINT, name STRING, price DOUBLE) WITH (
        'connector' = 'datagen',
        'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '6',
        'fields.name.kind' = 'sequence', 'fields.name.start' = '10', 'fields.name.end' = '15',
        'fields.price.kind' = 'sequence', 'fields.price.start' = '1', 'fields.price.end' = '6')""")


def show_files(path):
    for directory, _, files in sorted(os.walk(path)):
        for name in sorted(files):
            shown = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                           "<uuid>", name)
            print("file", os.path.relpath(os.path.join(directory, name), path)
                  .replace(name, shown))
            with open(os.path.join(directory, name)) as f:
                for line in f.read().splitlines():
                    print("  " + line)


for fmt, extra in (("csv", ""), ("json", ""),
                   ("csv", ", 'csv.field-delimiter' = ';'")):
    path = os.path.join(root, fmt + str(len(extra)))
    name = "fs_%s_%d" % (fmt, len(extra))
    t_env.execute_sql(
        "CREATE TABLE %s (id BIGINT, label STRING, price DOUBLE, ts TIMESTAMP(3), note STRING) "
        "WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s'%s)"
        % (name, path, fmt, extra))
    t_env.execute_sql(
        "INSERT INTO %s SELECT id, CONCAT('a,b\"', name, ' ;'), price / 4, "
        "TIMESTAMP '2024-01-02 03:04:05.120' + id * INTERVAL '1' SECOND, "
        "CASE WHEN id > 4 THEN CAST(NULL AS STRING) ELSE name END FROM orders" % name).wait()
    show_files(path)
    with t_env.execute_sql("SELECT id, label, price, ts, note FROM %s WHERE id <> 3"
                           % name).collect() as rows:
        for row in sorted(rows, key=lambda r: r[0]):
            print(fmt, "read", row)

table = t_env.from_path("fs_json_0")
ds = t_env.to_data_stream(t_env.sql_query(
    "SELECT id, label, price FROM fs_json_0 WHERE price > 0.5"))
ds.map(lambda r: "%d|%s|%s" % (r.id, r.label, r.price), output_type=Types.STRING()).print()
env.execute("read json")
shutil.rmtree(root)
