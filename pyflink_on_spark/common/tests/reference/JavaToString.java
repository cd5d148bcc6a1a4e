// Reference probe: Double/Float.toString on the local JVM (Java 17 here), fed hex bit patterns
// ("d <16 hex>" or "f <8 hex>") on stdin, one result per line. Used to check _java_text.py.
import java.io.*;
public class JavaToString {
  public static void main(String[] a) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
    PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
    String line;
    while ((line = r.readLine()) != null) {
      String[] p = line.split(" ");
      if (p[0].equals("d")) w.println(Double.toString(Double.longBitsToDouble(Long.parseUnsignedLong(p[1], 16))));
      else w.println(Float.toString(Float.intBitsToFloat((int) Long.parseLong(p[1], 16))));
    }
    w.flush();
  }
}
