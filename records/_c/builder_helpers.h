/*
 * C only: the Builder object, what the C class builder of one Record class takes
 * from records' Python modules. Its Python side is the helper list
 * that records/_accelerator.py passes in (builder_helpers()), checked here
 * name by name (BUILDER_FIELDS) when the Builder is made.
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */


typedef struct {
    PyObject_HEAD
    PyObject *record;               /* the Record class */
    PyObject *finish;               /* _builder.finish(cls, record, sealed, keywords) */
    PyObject *build_declined;       /* _builder.build_declined(cls, record) */
    PyObject *check_field_name;     /* _builder.check_field_name(record, name): raises */
    PyObject *field_types;          /* _builder.field_types(source, record) */
    PyObject *constructor_code;     /* _codegen.constructor_code(names, indices, closure) */
    PyObject *base_globals;         /* _codegen.BASE_GLOBALS */
    PyObject *tuple_new_cell;       /* _codegen.TUPLE_NEW_CELL */
    PyObject *factory_cell;         /* _codegen.FACTORY_CELL */
    PyObject *incomplete_cell;      /* _codegen.INCOMPLETE_CELL */
    PyObject *accessor;             /* _accessors.accessor(index, doc) */
    PyObject *default_docs;         /* _accessors.default_docs(count) -> list */
    PyObject *is_classvar;          /* _compat.is_classvar(annotation) */
    PyObject *annotate_new;         /* _annotations.annotate_new(cls, format), for deferred ones */
    PyObject *docs;                 /* _accessors._docs: the default docstrings, by index */
    PyObject *valid_names;          /* _builder._valid_names: field names checked already */
    PyObject *keywords;             /* _rules.KEYWORDS */
    PyObject *mutable_types;        /* _rules.MUTABLE_DEFAULT_TYPES */
    PyObject *field_type;           /* _fields.Field */
    PyObject *missing;              /* _fields.MISSING */
    PyObject *factory_marker;       /* _fields.FACTORY */
    PyObject *register_dill;        /* _pickling.register_dill() -> bool */
    PyObject *codes;                /* names -> code of __new__ without factories (bounded) */
    PyObject *closure_codes;        /* the same, of a record's __new__ (its closure's) */
    PyObject *tuple_bases;          /* (tuple,): the bases of records.namedtuple's classes */
    int dill_registered;            /* register_dill() said it is done */
    Py_ssize_t baseline;            /* references to a new class at the seal, -1 until measured */
    int measuring;                  /* a probe class is being made to measure it */
    int probe_owns_dict;            /* the probe had a __dict__ descriptor of its own */
} Builder;

#define BUILDER_FIELDS(X)                                  \
    X(record, "record", &PyType_Type)                      \
    X(finish, "finish", NULL)                              \
    X(build_declined, "build_declined", NULL)              \
    X(check_field_name, "check_field_name", NULL)          \
    X(field_types, "field_types", NULL)                    \
    X(constructor_code, "constructor_code", NULL)          \
    X(base_globals, "base_globals", &PyDict_Type)          \
    X(tuple_new_cell, "tuple_new_cell", &PyCell_Type)      \
    X(factory_cell, "factory_cell", &PyCell_Type)          \
    X(incomplete_cell, "incomplete_cell", &PyCell_Type)    \
    X(accessor, "accessor", NULL)                          \
    X(default_docs, "default_docs", NULL)                  \
    X(is_classvar, "is_classvar", NULL)                    \
    X(annotate_new, "annotate_new", NULL)                  \
    X(docs, "docs", &PyList_Type)                          \
    X(valid_names, "valid_names", &PySet_Type)             \
    X(keywords, "keywords", &PyFrozenSet_Type)             \
    X(mutable_types, "mutable_types", &PyTuple_Type)       \
    X(field_type, "field_type", &PyType_Type)              \
    X(missing, "missing", NULL)                            \
    X(factory_marker, "factory", NULL)                     \
    X(register_dill, "register_dill", NULL)

/* At most this many shapes in a Builder's code cache; then it starts over. */
#define CODE_CACHE_SIZE 4096

static int
builder_traverse(Builder *self, visitproc visit, void *arg)
{
#define VISIT_FIELD(field, name, kind) Py_VISIT(self->field);
    BUILDER_FIELDS(VISIT_FIELD)
#undef VISIT_FIELD
    Py_VISIT(self->codes);
    Py_VISIT(self->closure_codes);
    Py_VISIT(self->tuple_bases);
    return 0;
}

static int
builder_clear(Builder *self)
{
#define CLEAR_FIELD(field, name, kind) Py_CLEAR(self->field);
    BUILDER_FIELDS(CLEAR_FIELD)
#undef CLEAR_FIELD
    Py_CLEAR(self->codes);
    Py_CLEAR(self->closure_codes);
    Py_CLEAR(self->tuple_bases);
    return 0;
}

static void
builder_dealloc(Builder *self)
{
    PyObject_GC_UnTrack(self);
    builder_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Builder(**helpers): every helper by keyword, each checked for its type. */
static PyObject *
builder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) != 0 || kwargs == NULL) {
        PyErr_SetString(PyExc_TypeError, "Builder() takes its helpers by keyword");
        return NULL;
    }
    Builder *self = (Builder *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
#define TAKE_FIELD(field, name, kind)                                                          \
    {                                                                                          \
        PyObject *value = PyDict_GetItemString(kwargs, name);                                  \
        if (value == NULL || ((kind) != NULL && !PyObject_TypeCheck(value, (kind)))) {         \
            PyErr_Format(PyExc_TypeError, "Builder() needs %s%s", name,                        \
                         (kind) != NULL ? " of the right type" : "");                          \
            Py_DECREF(self);                                                                   \
            return NULL;                                                                       \
        }                                                                                      \
        self->field = Py_NewRef(value);                                                        \
    }
    BUILDER_FIELDS(TAKE_FIELD)
#undef TAKE_FIELD
    self->baseline = -1;
    self->measuring = 0;
    self->dill_registered = 0;
    if (PyDict_GET_SIZE(kwargs) != 22 || (self->codes = PyDict_New()) == NULL
        || (self->closure_codes = PyDict_New()) == NULL
        || (self->tuple_bases = PyTuple_Pack(1, (PyObject *)&PyTuple_Type)) == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "Builder() got an unexpected helper");
        }
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}
