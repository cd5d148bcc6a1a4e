"""The CLI hands what it knows to the executor as run options: a module beside the job script
imports inside Spark's Python workers (they are other processes)."""
import textwrap

from pyflink_on_spark.cli.script_runner import run_script_captured
from pyflink_on_spark.spark import entry


def test_modules_beside_the_script_import_in_the_tasks(spark, tmp_path):
    (tmp_path / "beside_helper_mod.py").write_text("def double(x):\n    return x * 2\n")
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent("""
        from pyflink.common.typeinfo import Types
        from pyflink.datastream import StreamExecutionEnvironment
        from beside_helper_mod import double

        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(2)
        ds = env.from_collection([1, 2, 3], type_info=Types.INT())
        print(sorted(ds.map(double, output_type=Types.INT()).execute_and_collect()))
    """))
    out, error = run_script_captured(str(script), [])
    assert error is None, error
    assert out.strip() == "[2, 4, 6]"
    assert str(tmp_path) in entry.run_options().script_dirs


def test_run_hands_master_conf_and_verbose_to_the_executor_as_run_options(tmp_path):
    from pyflink_on_spark.cli.main import main
    script = tmp_path / "noop.py"
    script.write_text("print('ran')\n")
    saved = entry.run_options()
    try:
        assert main(["run", "--conf", "no-equals-sign", str(script)]) == 2
        assert main(["run", "--master", "local[3]", "--conf", "spark.a=1 ", "--verbose",
                     str(script)]) == 0
        options = entry.run_options()
        assert (options.master, options.conf, options.verbose) == \
            ("local[3]", (("spark.a", "1 "),), True)
    finally:
        entry.set_run_options(saved)
