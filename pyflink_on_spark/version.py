"""pyflink.version mirror: the PyFlink release whose API pyflink_on_spark reproduces (programs
compare it to pick version-specific code). The shim's own version is
pyflink_on_spark.__version__."""
__version__ = "1.20.5"
