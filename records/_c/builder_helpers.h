/*
 * C only: the Builder object, what the C class builder of one Record class takes
 * from records' Python modules. Its Python side is the helper list
 * that records/_install.py passes in (builder_helpers()), checked here
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
    PyObject *codes;                /* _codegen._codes: (names, indices, closure) -> code */
    PyObject *tuple_bases;          /* (tuple,): the bases of records.namedtuple's classes */
    int dill_registered;            /* register_dill() said it is done */
    Py_ssize_t baseline;            /* references to a new class at the seal, -1 until measured */
    int measuring;                  /* a probe class is being made to measure it */
    int probe_owns_dict;            /* the probe had a __dict__ descriptor of its own */
} Builder;

/* The helpers, declared once: the field, its keyword, where records keeps it
 * ("module:attribute" in records), and its type (NULL: any). Python reads the
 * list (helper_sources()) to pass them in (builder_helpers()); "record", the
 * Record class itself, has no source: the caller passes it. */
#define BUILDER_FIELDS(X)                                                                  \
    X(record, "record", "", &PyType_Type)                                                 \
    X(finish, "finish", "_builder:finish", NULL)                                           \
    X(build_declined, "build_declined", "_builder:build_declined", NULL)                   \
    X(check_field_name, "check_field_name", "_builder:check_field_name", NULL)             \
    X(field_types, "field_types", "_builder:field_types", NULL)                            \
    X(constructor_code, "constructor_code", "_codegen:constructor_code", NULL)             \
    X(codes, "codes", "_codegen:_codes", &PyDict_Type)                                     \
    X(base_globals, "base_globals", "_codegen:BASE_GLOBALS", &PyDict_Type)                 \
    X(tuple_new_cell, "tuple_new_cell", "_codegen:TUPLE_NEW_CELL", &PyCell_Type)           \
    X(factory_cell, "factory_cell", "_codegen:FACTORY_CELL", &PyCell_Type)                 \
    X(incomplete_cell, "incomplete_cell", "_codegen:INCOMPLETE_CELL", &PyCell_Type)        \
    X(accessor, "accessor", "_accessors:accessor", NULL)                                   \
    X(default_docs, "default_docs", "_accessors:default_docs", NULL)                       \
    X(is_classvar, "is_classvar", "_compat:is_classvar", NULL)                             \
    X(annotate_new, "annotate_new", "_annotations:annotate_new", NULL)                     \
    X(docs, "docs", "_accessors:_docs", &PyList_Type)                                      \
    X(valid_names, "valid_names", "_builder:_valid_names", &PySet_Type)                    \
    X(keywords, "keywords", "_rules:KEYWORDS", &PyFrozenSet_Type)                          \
    X(mutable_types, "mutable_types", "_rules:MUTABLE_DEFAULT_TYPES", &PyTuple_Type)       \
    X(field_type, "field_type", "_fields:Field", &PyType_Type)                             \
    X(missing, "missing", "_fields:MISSING", NULL)                                         \
    X(factory_marker, "factory", "_fields:FACTORY", NULL)                                  \
    X(register_dill, "register_dill", "_pickling:register_dill", NULL)

#define COUNT_FIELD(field, name, source, kind) +1
/* How many helpers a Builder takes. */
#define BUILDER_FIELD_COUNT (0 BUILDER_FIELDS(COUNT_FIELD))

/* helper_sources() -> ((name, "module:attribute"), ...): the helpers a Builder
 * takes besides the Record class, and where records keeps each. */
static PyObject *
records_helper_sources(PyObject *module, PyObject *unused)
{
    PyObject *sources = PyList_New(0);
    if (sources == NULL) {
        return NULL;
    }
#define LIST_FIELD(field, name, source, kind)                                                  \
    if ((source)[0] != '\0') {                                                                \
        PyObject *pair = Py_BuildValue("(ss)", name, source);                                  \
        if (pair == NULL || PyList_Append(sources, pair) < 0) {                                \
            Py_XDECREF(pair);                                                                  \
            Py_DECREF(sources);                                                                \
            return NULL;                                                                       \
        }                                                                                      \
        Py_DECREF(pair);                                                                       \
    }
    BUILDER_FIELDS(LIST_FIELD)
#undef LIST_FIELD
    PyObject *result = PyList_AsTuple(sources);
    Py_DECREF(sources);
    return result;
}

static int
builder_traverse(Builder *self, visitproc visit, void *arg)
{
#define VISIT_FIELD(field, name, source, kind) Py_VISIT(self->field);
    BUILDER_FIELDS(VISIT_FIELD)
#undef VISIT_FIELD
    Py_VISIT(self->tuple_bases);
    return 0;
}

static int
builder_clear(Builder *self)
{
#define CLEAR_FIELD(field, name, source, kind) Py_CLEAR(self->field);
    BUILDER_FIELDS(CLEAR_FIELD)
#undef CLEAR_FIELD
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
#define TAKE_FIELD(field, name, source, kind)                                                  \
    {                                                                                          \
        PyObject *value = PyDict_GetItemString(kwargs, name);                                  \
        if (value == NULL || ((kind) != NULL && !PyObject_TypeCheck(value, (kind)))) {         \
            PyErr_Format(PyExc_TypeError, "Builder() needs %s%s", name,                        \
                         value != NULL ? " of the right type" : "");                           \
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
    if (PyDict_GET_SIZE(kwargs) != BUILDER_FIELD_COUNT
        || (self->tuple_bases = PyTuple_Pack(1, (PyObject *)&PyTuple_Type)) == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "Builder() got an unexpected helper");
        }
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}
