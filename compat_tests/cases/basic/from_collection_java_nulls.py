"""A None in a tuple field of from_collection: for STRING, BIG_DEC and the SQL date/time types
PyFlink's Java side takes it (a print sink shows null) and the job fails only when such a
record reaches a Python function (map, filter, key_by); for other field types
from_collection itself fails."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)


def pair(second):
    return Types.TUPLE([Types.INT(), second])


def run(title, build):
    print("--", title, flush=True)
    try:
        build()
        env.execute(title)
        print("ran", flush=True)
    except Exception as e:
        print("failed:", type(e).__name__ in ("Py4JJavaError", "JobExecutionError",
                                              "TypeError"), flush=True)


run("STRING null printed", lambda: env.from_collection(
    [(1, "a"), (2, None)], pair(Types.STRING())).print())
run("SQL_DATE null printed", lambda: env.from_collection(
    [(2, None)], pair(Types.SQL_DATE())).print())
run("BIG_DEC null printed", lambda: env.from_collection(
    [(3, None)], pair(Types.BIG_DEC())).print())
run("STRING null into a map", lambda: env.from_collection(
    [(1, "a"), (2, None)], pair(Types.STRING())).map(str, Types.STRING()).print())
run("STRING null into a filter", lambda: env.from_collection(
    [(2, None)], pair(Types.STRING())).filter(lambda t: True).print())
run("STRING null into key_by", lambda: env.from_collection(
    [(2, None)], pair(Types.STRING())).key_by(lambda t: t[0]).print())
run("SQL_TIMESTAMP null into a map", lambda: env.from_collection(
    [(2, None)], pair(Types.SQL_TIMESTAMP())).map(str, Types.STRING()).print())
run("INT null", lambda: env.from_collection([(2, None)], pair(Types.INT())).print())
run("DOUBLE null", lambda: env.from_collection([(2, None)], pair(Types.DOUBLE())).print())
run("STRING null without a type", lambda: env.from_collection(
    [(2, None)]).map(str, Types.STRING()).print())
