"""filesystem tables of the csv format (issue 44): values read as Flink's csv format reads
them. Numbers, booleans and timestamps after blanks stripped (cc3213252/pyflink-learn's
source.txt: `yu, 12, 32, 2022-07-01 10:00:00`), text kept with its spaces, an empty text field
'' (not NULL); csv.null-literal, csv.ignore-parse-errors, csv.allow-comments,
csv.field-delimiter, quotes; a record of too few fields fails."""
import os
import shutil
import tempfile

from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
root = tempfile.mkdtemp()


def table(name, columns, text, options=""):
    path = os.path.join(root, name)
    os.makedirs(path)
    with open(os.path.join(path, "data.csv"), "w") as f:
        f.write(text)
    t_env.execute_sql("CREATE TABLE %s (%s) WITH ('connector' = 'filesystem', 'path' = '%s', "
                      "'format' = 'csv'%s)" % (name, columns, path, options))


def show(name):
    try:
        with t_env.execute_sql("SELECT * FROM %s" % name).collect() as rows:
            for row in rows:
                print(name, [repr(v) for v in row])
    except Exception as e:
        text = str(e)
        print(name, "fails:", [m for m in ("Row length mismatch. 3 fields expected but was 2.",
                                           'For input string: ""', "Too many entries")
                               if m in text])


table("survey", "a VARCHAR, b BIGINT, c BIGINT, rowtime TIMESTAMP(3)",
      "yu, 12, 32, 2022-07-01 10:00:00\nkite, 54, 23, 2022-07-01 10:02:00\n"
      ", 12, 43, 2022-07-01 11:00:00\n")
table("typed", "s STRING, i INT, d DOUBLE, m DECIMAL(6, 2), b BOOLEAN, t TIMESTAMP(3), "
      "dt DATE, v VARCHAR(4)",
      ' x ,  7 , 1.5 ,2.505, TRUE ,  2024-01-02 03:04:05.6789 ,2024-01-02,"a, b"\n'
      '"",-3,1e3,99,yes,2024-01-02 03:04:05,2024-2-3,  "q"  \n')
table("nulls", "s STRING, i INT, t TIMESTAMP(3), d DATE",
      "NULL,NULL,NULL,NULL\n NULL ,1,2024-01-02 00:00:00,2024-01-02\n\"NULL\",2,NULL,NULL\n",
      ", 'csv.null-literal' = 'NULL'")
table("lenient", "s STRING, i BIGINT, d DOUBLE",
      "x,1,1.5\ny,zz,\nz,3\nw,4,4.5,extra\n\nv,5,5.5\n", ", 'csv.ignore-parse-errors' = 'true'")
table("commented", "s STRING, i BIGINT",
      "# a comment\nx;1\n  # indented\n\ny; 2 \n", ", 'csv.allow-comments' = 'true', "
      "'csv.field-delimiter' = ';'")
table("quoted", "s STRING, i BIGINT", '"a ""b""\nc"," 3 "\n\'x\',4\n')
table("too_short", "s STRING, i BIGINT, t STRING", "x,1,a\ny,2\n")
table("empty_number", "s STRING, i BIGINT", "x,1\ny,\n")
for name in ("survey", "typed", "nulls", "lenient", "commented", "quoted", "too_short",
             "empty_number"):
    show(name)
shutil.rmtree(root)
