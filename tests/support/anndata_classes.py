"""The classes of AnnData's elements in the packages built from tests/runtime/conventions/:
schemas/anndata-v3 and anndata-v2, and the SpatialData conventions, whose tables are AnnData."""

# The class each encoding-type is the tag of (the `$defs` entry whose `encoding-type` is that
# constant); tests/runtime/test_anndata.py's test_the_table_is_the_schemas checks it against
# both AnnData schemas.
CLASS_OF = {
    "anndata": "AnnData",
    "raw": "Raw",
    "dataframe": "DataFrame",
    "dict": "Dict",
    "csr_matrix": "CsrMatrix",
    "csc_matrix": "CscMatrix",
    "array": "DenseArray",
    "string-array": "StringArray",
    "categorical": "Categorical",
    "nullable-integer": "NullableInteger",
    "nullable-boolean": "NullableBoolean",
    "nullable-string-array": "NullableStringArray",
    "rec-array": "RecArray",
    "numeric-scalar": "NumericScalar",
    "string": "StringScalar",
    "null": "NullElement",
}
