"""`zomgen cases`: derived type-check cases for any convention (docs/derived-cases.md).

synth.py builds a smallest valid hierarchy from the IR, repair.py fixes what the IR cannot say
against the package's run time, walk.py finds the places of the valid document, mutate.py
breaks each once, sight.py says how the checkers' types see each mistake's place, expect.py
says what each checker must report, emit.py spells the cases, derive.py writes them, and
check_cases.py (copied into the output) runs the checkers.
"""
