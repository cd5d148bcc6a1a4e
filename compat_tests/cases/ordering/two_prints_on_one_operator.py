"""print() sinks chained to one operator's output print each record in turn, as the operator
emits it (they are Java operators behind it): x> r1, y> r1, x> r2, ... A Python operator
behind the same output holds its records until its bundle ends, so its print comes after."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

S, I = Types.STRING(), Types.INT()


def env_p1():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env


print("-- two prints on a map", flush=True)
env = env_p1()
m = env.from_collection([1, 2, 3], type_info=I).map(lambda x: "m-%d" % x, S)
m.print("x")
m.print("y")
env.execute()

print("-- three prints, the last without identifier", flush=True)
env = env_p1()
m = env.from_collection([1, 2], type_info=I).map(lambda x: "m-%d" % x, S)
m.print("b")
m.print("a")
m.print()
env.execute()

print("-- two prints on a keyed reduce", flush=True)
env = env_p1()
r = env.from_collection([("a", 1), ("b", 2), ("a", 3)],
                        type_info=Types.TUPLE([S, I])) \
    .key_by(lambda t: t[0]).reduce(lambda p, q: (p[0], p[1] + q[1]))
r.print("first")
r.print("second")
env.execute()

print("-- a print and a map's print on one map", flush=True)
env = env_p1()
m = env.from_collection([1, 2], type_info=I).map(lambda x: "m-%d" % x, S)
m.map(lambda s: s.upper(), S).print("upper")
m.print("plain")
m.print("again")
env.execute()

print("-- two prints on a Row stream (each print() maps the Row to a string first)", flush=True)
env = env_p1()
rows = env.from_collection([1, 2], type_info=I).map(lambda x: Row(x, "r"),
                                                    Types.ROW([I, S]))
rows.print("x")
rows.print("y")
env.execute()

print("-- two prints on an untyped stream", flush=True)
env = env_p1()
plain = env.from_collection([1, 2], type_info=I).map(lambda x: x * 10)
plain.print("x")
plain.print("y")
env.execute()
