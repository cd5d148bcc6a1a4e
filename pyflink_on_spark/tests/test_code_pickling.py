"""A function pickled by value keeps its source file name: a user function that raises in a
worker shows the user's file and line (cloudpickle 3.1.3 alone writes "<dynamic-code>")."""
import traceback

import cloudpickle

import pyflink_on_spark  # noqa: F401  (installs the reducer)


def test_a_function_pickled_by_value_keeps_its_file_name():
    def fails(x):
        raise ValueError(x)

    copy = cloudpickle.loads(cloudpickle.dumps(fails))
    assert copy.__code__.co_filename == __file__
    try:
        copy(1)
    except ValueError as e:
        frames = traceback.extract_tb(e.__traceback__)
    assert frames[-1].filename == __file__ and frames[-1].name == "fails"
    assert frames[-1].line == "raise ValueError(x)"


def test_installing_twice_changes_nothing():
    from cloudpickle import cloudpickle as implementation
    import types
    from pyflink_on_spark import code_pickling
    before = implementation.Pickler._dispatch_table[types.CodeType]
    code_pickling.install()
    assert implementation.Pickler._dispatch_table[types.CodeType] is before
