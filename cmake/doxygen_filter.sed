# Doxygen INPUT_FILTER for the public headers (cmake/docs.cmake): their plain // comments become
# documentation. A comment line of its own -> ///, documents what follows; a comment after code
# on the same line -> ///<, documents that member or enumerator. //! and /// stay as they are.
# Closing braces and preprocessor lines keep their comments ("}  // namespace detail").
/^[[:space:]]*[}#]/b
s@^\([[:space:]]*\)//\([^/!]\)@\1///\2@
s@^\([[:space:]]*\)//$@\1///@
s@\([^[:space:]/][^/]*\)[[:space:]]//\([^/!<]\)@\1 ///<\2@
