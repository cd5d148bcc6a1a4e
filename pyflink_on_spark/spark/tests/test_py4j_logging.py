"""A program logging at INFO must not get Py4J's INFO lines (PyFlink's client prints none)."""
import logging

from pyflink_on_spark.spark.session import quiet_py4j_logging


def test_py4j_info_lines_are_not_logged_but_warnings_are():
    logger = logging.getLogger("py4j.clientserver")
    saved = {name: logging.getLogger(name).level
             for name in ("py4j", "py4j.clientserver", "py4j.java_gateway")}
    try:
        for name in saved:
            logging.getLogger(name).setLevel(logging.NOTSET)
        quiet_py4j_logging()
        assert not logger.isEnabledFor(logging.INFO)
        assert logger.isEnabledFor(logging.WARNING)
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


def test_a_level_the_program_set_on_py4j_is_kept():
    logger = logging.getLogger("py4j.java_gateway")
    saved = logger.level
    try:
        logger.setLevel(logging.DEBUG)
        quiet_py4j_logging()
        assert logger.level == logging.DEBUG
    finally:
        logger.setLevel(saved)
