/*
 * C only: the Builder object, what the C class builder of one Record class takes
 * from records' Python modules. install_c_builder() in records/_record.py makes
 * it from the Record class alone, as Record is defined; each helper is read
 * from where records keeps it (BUILDER_FIELDS) when a build first needs it, so
 * that importing records loads none of the modules they live in.
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */


typedef struct {
    PyObject_HEAD
    PyObject *record;               /* the Record class */
    PyObject *valid_names;          /* field names checked already: a set of this Builder's */
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
    PyObject *annotate_new;         /* _annotations.annotate_new(cls, format), for deferred ones */
    PyObject *docs;                 /* _accessors._docs: the default docstrings, by index */
    PyObject *mutable_types;        /* _rules.MUTABLE_DEFAULT_TYPES */
    PyObject *field_type;           /* _fields.Field */
    PyObject *missing;              /* _fields.MISSING */
    PyObject *factory_marker;       /* _fields.FACTORY */
    PyObject *register_dill;        /* _pickling.register_dill() -> bool */
    PyObject *nt_templates;         /* _namedtuple.METHOD_TEMPLATES, for records.namedtuple */
    PyObject *codes;                /* _codegen._codes: (names, indices, closure) -> code */
    PyObject *tuple_bases;          /* (tuple,): the bases of records.namedtuple's classes */
    int builds_ready;               /* every helper of every build is loaded (builds_ready()) */
    int dill_registered;            /* register_dill() said it is done */
    Py_ssize_t baseline;            /* references to a new class at the seal, -1 until measured,
                                       NO_BASELINE where it cannot be */
    uintptr_t measuring;            /* the thread making a probe class to measure it, or 0 */
    int probe_owns_dict;            /* the probe had a __dict__ descriptor of its own */
} Builder;

/* When a helper is loaded: EVERY_BUILD ones before a build starts, all at
 * once (builds_ready(), before the class is sealed: an import runs Python
 * code); ON_CALL ones, which only calls into Python use, at that call
 * (helper()), so that their modules load only for the classes that need
 * them. register_dill is read before the first build for its module's sake:
 * importing records/_pickling.py registers with copyreg how a record's
 * fields pickle, which must hold before any record class can be pickled. The
 * rows load in their order: each module after those it imports, so that a
 * class statement that an import hook runs meanwhile finds none of records'
 * modules half made. */
enum { EVERY_BUILD, ON_CALL };

/* The helpers, declared once: the field, its name, where records keeps it
 * ("module:attribute" in records), its type (NULL: any) and when it is
 * loaded. Python reads the list through helper_sources(). */
#define BUILDER_FIELDS(X)                                                                  \
    X(finish, "finish", "_builder:finish", NULL, ON_CALL)                                  \
    X(build_declined, "build_declined", "_builder:build_declined", NULL, ON_CALL)          \
    X(check_field_name, "check_field_name", "_builder:check_field_name", NULL, ON_CALL)    \
    X(field_types, "field_types", "_builder:field_types", NULL, ON_CALL)                   \
    X(constructor_code, "constructor_code", "_codegen:constructor_code", NULL, EVERY_BUILD) \
    X(codes, "codes", "_codegen:_codes", &PyDict_Type, EVERY_BUILD)                        \
    X(base_globals, "base_globals", "_codegen:BASE_GLOBALS", &PyDict_Type, EVERY_BUILD)    \
    X(tuple_new_cell, "tuple_new_cell", "_codegen:TUPLE_NEW_CELL", &PyCell_Type, EVERY_BUILD) \
    X(factory_cell, "factory_cell", "_codegen:FACTORY_CELL", &PyCell_Type, EVERY_BUILD)    \
    X(incomplete_cell, "incomplete_cell", "_codegen:INCOMPLETE_CELL", &PyCell_Type,        \
      EVERY_BUILD)                                                                         \
    X(accessor, "accessor", "_accessors:accessor", NULL, EVERY_BUILD)                      \
    X(default_docs, "default_docs", "_accessors:default_docs", NULL, EVERY_BUILD)          \
    X(docs, "docs", "_accessors:_docs", &PyList_Type, EVERY_BUILD)                         \
    X(annotate_new, "annotate_new", "_annotations:annotate_new", NULL, ON_CALL)            \
    X(mutable_types, "mutable_types", "_rules:MUTABLE_DEFAULT_TYPES", &PyTuple_Type,       \
      ON_CALL)                                                                             \
    X(field_type, "field_type", "_fields:Field", &PyType_Type, EVERY_BUILD)                \
    X(missing, "missing", "_fields:MISSING", NULL, EVERY_BUILD)                            \
    X(factory_marker, "factory", "_fields:FACTORY", NULL, EVERY_BUILD)                     \
    X(register_dill, "register_dill", "_pickling:register_dill", NULL, EVERY_BUILD)         \
    X(nt_templates, "nt_templates", "_namedtuple:METHOD_TEMPLATES", &PyTuple_Type, ON_CALL)

typedef struct {
    const char *name;     /* the helper's name, as helper_sources() gives it */
    const char *source;   /* "module:attribute" in records */
    PyTypeObject *kind;   /* the type it must have; NULL: any */
    int when;             /* EVERY_BUILD or ON_CALL */
    Py_ssize_t offset;    /* where the Builder keeps it */
} HelperSource;

#define HELPER_ROW(field, name, source, kind, when) {name, source, kind, when, offsetof(Builder, field)},
static const HelperSource helper_table[] = {BUILDER_FIELDS(HELPER_ROW)};
#undef HELPER_ROW

#define HELPER_INDEX(field, name, source, kind, when) HELPER_##field,
enum { BUILDER_FIELDS(HELPER_INDEX) HELPER_COUNT };
#undef HELPER_INDEX

#define HELPER_SLOT(self, index) \
    ((PyObject **)((char *)(self) + helper_table[(index)].offset))

/* Read helper index from records.<module>.<attribute> into the Builder, if it
 * is not there yet; return it, borrowed (the Builder keeps it for its
 * lifetime), or NULL with an error. The import may run any Python code,
 * another build included, which may have loaded it meanwhile: the first
 * value stored stays. */
static PyObject *
load_helper(Builder *self, int index)
{
    PyObject **slot = HELPER_SLOT(self, index);
    PyObject *known = LOAD_PTR(*slot);
    if (known != NULL) {
        return known;
    }
    const HelperSource *row = &helper_table[index];
    const char *colon = strchr(row->source, ':');
    char module_name_text[64];
    PyOS_snprintf(module_name_text, sizeof(module_name_text), "records.%.*s",
                  (int)(colon - row->source), row->source);
    PyObject *module_name = PyUnicode_FromString(module_name_text);
    if (module_name == NULL) {
        return NULL;
    }
    PyObject *module = records_module(module_name);
    Py_DECREF(module_name);
    if (module == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_GetAttrString(module, colon + 1);
    Py_DECREF(module);
    if (value == NULL) {
        return NULL;
    }
    if (row->kind != NULL && !PyObject_TypeCheck(value, row->kind)) {
        PyErr_Format(PyExc_TypeError, "the class builder's helper %s.%s must be a %s",
                     module_name_text, colon + 1, row->kind->tp_name);
        Py_DECREF(value);
        return NULL;
    }
    if (!store_once((void **)slot, value)) {
        Py_DECREF(value);
    }
    return LOAD_PTR(*slot);
}

/* The ON_CALL helper field of self, loaded if need be: borrowed, or NULL with
 * an error. */
#define HELPER(self, field)                                                        \
    (LOAD_PTR((self)->field) != NULL ? (PyObject *)LOAD_PTR((self)->field)        \
                                     : load_helper((self), HELPER_##field))

/* Load every EVERY_BUILD helper, once: 0, or -1 with an error. Every entry to
 * a build calls it before it touches the class. */
static int
builds_ready(Builder *self)
{
    if (LOAD_INT(self->builds_ready)) {
        return 0;
    }
    for (int index = 0; index < HELPER_COUNT; index++) {
        if (helper_table[index].when == EVERY_BUILD && load_helper(self, index) == NULL) {
            return -1;
        }
    }
    STORE_INT(self->builds_ready, 1);
    return 0;
}

/* helper_sources() -> ((name, "module:attribute"), ...): the helpers a Builder
 * reads, and where records keeps each. */
static PyObject *
records_helper_sources(PyObject *module, PyObject *unused)
{
    PyObject *sources = PyTuple_New(HELPER_COUNT);
    for (int index = 0; sources != NULL && index < HELPER_COUNT; index++) {
        PyObject *pair = Py_BuildValue("(ss)", helper_table[index].name,
                                       helper_table[index].source);
        if (pair == NULL) {
            Py_CLEAR(sources);
            break;
        }
        PyTuple_SET_ITEM(sources, index, pair);
    }
    return sources;
}

/* Builder.helper(name): the helper so named, loaded if need be (for tests). */
static PyObject *
builder_helper(PyObject *self, PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "helper() takes a str, not %.200s", Py_TYPE(name)->tp_name);
        return NULL;
    }
    for (int index = 0; index < HELPER_COUNT; index++) {
        if (PyUnicode_CompareWithASCIIString(name, helper_table[index].name) == 0) {
            return Py_XNewRef(load_helper((Builder *)self, index));
        }
    }
    PyErr_Format(PyExc_KeyError, "no helper %R", name);
    return NULL;
}

static int
builder_traverse(Builder *self, visitproc visit, void *arg)
{
#define VISIT_FIELD(field, name, source, kind, when) Py_VISIT(self->field);
    BUILDER_FIELDS(VISIT_FIELD)
#undef VISIT_FIELD
    Py_VISIT(self->record);
    Py_VISIT(self->valid_names);
    Py_VISIT(self->tuple_bases);
    return 0;
}

static int
builder_clear(Builder *self)
{
#define CLEAR_FIELD(field, name, source, kind, when) Py_CLEAR(self->field);
    BUILDER_FIELDS(CLEAR_FIELD)
#undef CLEAR_FIELD
    Py_CLEAR(self->record);
    Py_CLEAR(self->valid_names);
    Py_CLEAR(self->tuple_bases);
    self->builds_ready = 0; /* the helpers are gone */
    return 0;
}

static void
builder_dealloc(Builder *self)
{
    PyObject_GC_UnTrack(self);
    builder_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Builder(record): the class builder of record, the Record class. */
static PyObject *
builder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *record;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Builder() takes the Record class alone");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!:Builder", &PyType_Type, &record)) {
        return NULL;
    }
    Builder *self = (Builder *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->record = Py_NewRef(record);
    self->baseline = -1;
    if ((self->valid_names = PySet_New(NULL)) == NULL
        || (self->tuple_bases = PyTuple_Pack(1, (PyObject *)&PyTuple_Type)) == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}
