"""from_collection converts elements as PyFlink's Java side does: plain objects declared
ROW_NAMED or MAP by attribute name, lists declared TUPLE, integers narrowed as Java narrows,
ints declared STRING as their text; what its converter turns into null makes it fail."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment


class WaterSensor:
    def __init__(self, id, ts, vc):
        self.id = id
        self.ts = ts
        self.vc = vc


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
sensors = [WaterSensor("s1", 10, 1), WaterSensor("s2", 22, 2)]


def run(title, values, type_info):
    print("--", title, flush=True)
    try:
        env.from_collection(values, type_info).map(repr, output_type=Types.STRING()).print()
        env.execute(title)
    except Exception as e:
        print("from_collection failed:", type(e).__name__ in ("Py4JJavaError", "TypeError", "ValueError"), flush=True)


def run_print(title, values, type_info):
    print("--", title, flush=True)
    env.from_collection(values, type_info).print()
    env.execute(title)


run_print("objects declared ROW_NAMED, printed", sensors,
          Types.ROW_NAMED(["id", "ts", "vc"], [Types.STRING(), Types.LONG(), Types.INT()]))
run("objects declared ROW_NAMED, a subset of fields reordered", sensors,
    Types.ROW_NAMED(["vc", "id"], [Types.INT(), Types.STRING()]))
run("objects declared ROW_NAMED with a missing attribute", sensors,
    Types.ROW_NAMED(["id", "height"], [Types.STRING(), Types.INT()]))
run("dicts declared ROW_NAMED", [{"id": "s3", "vc": 7}],
    Types.ROW_NAMED(["id", "vc"], [Types.STRING(), Types.INT()]))
run("objects declared MAP(STRING, STRING)", sensors, Types.MAP(Types.STRING(), Types.STRING()))
run_print("objects declared MAP, printed", sensors[:1], Types.MAP(Types.STRING(), Types.STRING()))
run("lists declared TUPLE", [[1, 2, 3, 4]], Types.TUPLE([Types.INT()] * 4))
run_print("lists declared TUPLE, printed", [[1, 2, 3, 4], (5, 6, 7, 8)], Types.TUPLE([Types.INT()] * 4))
run("Row declared TUPLE", [Row(1, "a")], Types.TUPLE([Types.INT(), Types.STRING()]))
run("tuple declared ROW", [(1, "a")], Types.ROW([Types.INT(), Types.STRING()]))
run("SHORT narrowed", [43878, -40000, 7], Types.SHORT())
run("INT narrowed", [9147483648, -3000000000], Types.INT())
run("BYTE narrowed", [300, -129, 200], Types.BYTE())
run("LONG within 64 bits", [2 ** 63 - 1, -2 ** 63], Types.LONG())
run("FLOAT beyond its range", [1e40, -1e40, 0.1], Types.FLOAT())
run("ints declared STRING", [5, -7], Types.STRING())
run("narrowed inside a row", [(43878, 9147483648, 1e40)],
    Types.ROW([Types.SHORT(), Types.INT(), Types.FLOAT()]))
run("float declared ROW field INT is null", [(3.5, "x")], Types.ROW([Types.INT(), Types.STRING()]))
print("-- failures", flush=True)
run("LONG beyond 64 bits", [2 ** 64 + 5], Types.LONG())
run("float declared SHORT", [3.7], Types.SHORT())
run("bool declared INT", [True], Types.INT())
run("int declared DOUBLE", [5], Types.DOUBLE())
run("int declared FLOAT", [5], Types.FLOAT())
run("int declared BOOLEAN", [1], Types.BOOLEAN())
run("INT beyond 64 bits", [2 ** 70], Types.INT())
run("tuple of the wrong length declared TUPLE", [(1, 2, 3)], Types.TUPLE([Types.INT()] * 2))
run("float field declared TUPLE field INT", [(1, 2.5)], Types.TUPLE([Types.INT()] * 2))
run("object declared MAP(STRING, INT)", sensors[:1], Types.MAP(Types.STRING(), Types.INT()))
