# Sourced by the e2e scripts.
# check_svg FILE: well-formed XML whose root is <svg> (prints what is wrong, nothing if fine).
check_svg() {
  python3 -S - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as e:
    print("not well-formed: %s" % e); sys.exit()
if root.tag != "{http://www.w3.org/2000/svg}svg":
    print("root is %s" % root.tag)
PY
}
