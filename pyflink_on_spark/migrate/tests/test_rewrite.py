import ast
import textwrap

from pyflink_on_spark.migrate.rewrite import rewrite_source

SOURCE = textwrap.dedent('''\
    # a job  (pyflink imports below)
    from pyflink.common import Types  # types
    from pyflink.datastream import (StreamExecutionEnvironment,   # env
                                    RuntimeExecutionMode)
    import pyflink.datastream.functions as fns ; import os
    import pyflink.common
    from   pyflink.datastream.connectors.kafka import \\
        KafkaSource
    from pyflink_utils import helper
    import mypyflink

    NOTE = "from pyflink.common import Types"   # a string stays


    def f():
        from pyflink.datastream.window import TumblingEventTimeWindows
        return pyflink.common.Types.INT()
    ''')


def test_rewrites_only_module_names_in_import_statements():
    result = rewrite_source("job.py", SOURCE)
    expected = (SOURCE
                .replace("from pyflink.common import Types  #",
                         "from pyflink_on_spark.common import Types  #")
                .replace("from pyflink.datastream import (",
                         "from pyflink_on_spark.datastream import (")
                .replace("import pyflink.datastream.functions as fns",
                         "import pyflink_on_spark.datastream.functions as fns")
                .replace("from   pyflink.datastream.connectors.kafka",
                         "from   pyflink_on_spark.datastream.connectors.kafka")
                .replace("from pyflink.datastream.window",
                         "from pyflink_on_spark.datastream.window"))
    assert result.rewritten == expected
    # `import pyflink.common` binds the name pyflink, which f() uses: left alone, reported
    assert [line for line, _why in result.skipped] == [6]


def test_rewrite_keeps_everything_else_byte_for_byte():
    result = rewrite_source("job.py", SOURCE)
    assert result.rewritten.count("\n") == SOURCE.count("\n")
    assert "# types" in result.rewritten and "# env" in result.rewritten
    assert 'NOTE = "from pyflink.common import Types"' in result.rewritten
    assert "from pyflink_utils import helper" in result.rewritten
    assert "import mypyflink" in result.rewritten
    ast.parse(result.rewritten)


def test_dry_run_diff_is_unified():
    diff = rewrite_source("job.py", SOURCE).diff()
    assert diff.startswith("--- a/job.py\n+++ b/job.py\n")
    assert "-from pyflink.common import Types  # types" in diff
    assert "+from pyflink_on_spark.common import Types  # types" in diff


def test_nothing_to_rewrite():
    result = rewrite_source("x.py", "import os\n")
    assert not result.changed and result.diff() == ""
