"""`pyflink-on-spark plan`: pictures of a job's DataStream graph and the Spark stages it
becomes, drawn without running the job (model.py is what is drawn, one module per format)."""
