# Writes OUTPUT, a C++ source that defines `const char *const NAME` in namespace NAMESPACE as
# the bytes of INPUT followed by a NUL; run at build time (add_custom_command), so any text —
# tabs, quotes, semicolons — goes in unchanged.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${INPUT} by embed.cmake.\nnamespace ${NAMESPACE} {\nnamespace {\nconst char data[] = {${bytes}'\\0'};\n}\nextern const char *const ${NAME};\nconst char *const ${NAME} = data;\n}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
