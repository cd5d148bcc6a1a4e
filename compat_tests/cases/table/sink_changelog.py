"""INSERT INTO a print table of a grouping query in STREAMING mode (issue 44): the print
connector prints Flink's changelog, +I / -U / +U rows, at parallelism 1."""
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

words = t_env.from_elements(
    [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)],
    DataTypes.ROW([DataTypes.FIELD("word", DataTypes.STRING()),
                   DataTypes.FIELD("n", DataTypes.INT())]))
t_env.create_temporary_view("words", words)
t_env.execute_sql("CREATE TABLE counts (word STRING, cnt BIGINT, total INT) "
                  "WITH ('connector' = 'print', 'print-identifier' = 'counts')")
t_env.execute_sql("INSERT INTO counts SELECT word, COUNT(*), SUM(n) FROM words "
                  "GROUP BY word").wait()
t_env.execute_sql("CREATE TABLE everything (cnt BIGINT) WITH ('connector' = 'print')")
t_env.execute_sql("INSERT INTO everything SELECT COUNT(*) FROM words").wait()
