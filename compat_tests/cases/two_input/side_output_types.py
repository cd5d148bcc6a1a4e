"""A side output's values take its OutputTag's declared type where they leave the function
(INT truncates a float, DOUBLE widens an int, a positional Row gets the ROW_NAMED names, no type
keeps the Python object; a list of types is a ROW); print renders the tag's type."""
from pyflink.common import Row, Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessFunction

as_int = OutputTag("int", Types.INT())
as_double = OutputTag("double", Types.DOUBLE())
as_row = OutputTag("row", Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()]))
pickled = OutputTag("pickled")
as_list_row = OutputTag("list", [Types.INT(), Types.STRING()])


class AllKinds(ProcessFunction):
    def process_element(self, value, ctx):
        yield value
        yield as_int, value + 0.7
        yield as_double, value
        yield as_row, Row(value, str(value))
        yield pickled, (value, "x")
        yield as_list_row, Row(value * 10, "y")


def describe(v):
    return type(v).__name__ + " " + repr(v)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
main = env.from_collection([1, 2], type_info=Types.INT()).process(AllKinds(), Types.INT())
for tag in (as_int, as_double, as_row, pickled, as_list_row):
    side = main.get_side_output(tag)
    print(tag.tag_id, side.get_type(),
          side.map(describe, output_type=Types.STRING()).execute_and_collect(limit=5))
print("-- printed", flush=True)
main.get_side_output(as_row).print()
env.execute("print row side output")
main.get_side_output(as_double).print()
env.execute("print double side output")
