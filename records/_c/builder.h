/*
 * The class builder: Record.__init_subclass__ in C.
 *
 * A Builder holds what the build needs from records' Python modules, for the
 * one Record class it serves (install_c_builder() in records/_record.py makes
 * it), read when a build first needs it (builder_helpers.h). Its
 * init_subclass():
 *   1. seals the layout first, before any Python code runs, where no code but
 *      CPython's own has had the class (may_seal_here);
 *   2. builds the common class statement in the steps of records/_builder.py,
 *      under the same names: compute_parts (collect_fields, make_new), then
 *      write_parts;
 *   3. leaves everything else to records/_builder.py, having changed nothing
 *      but the layout: class keywords and mixins after Record (the Python
 *      __init_subclass__), and other bases, metaclasses, ClassVar, generics
 *      and every definition error but one (build_declined). An invalid field
 *      name is checked by the Python function both share, so its message is
 *      the same.
 *
 * The Builder object is in builder_helpers.h, the sealing decision in
 * sealing.h. Part of records/_c/accelerator.c, which includes it once, after
 * those; not compiled on its own.
 */
/* What build_record() did with a class. Declined means unchanged but for its
 * layout: records/_builder.py is to build it. */
enum { BUILD_FAILED = -1, BUILD_DECLINED = 0, BUILD_DONE = 1 };

/* What build_record() computes before it changes the class: the Parts of
 * records/_builder.py. Every member is a strong reference. */
typedef struct {
    PyObject *names;             /* every field name, inherited first */
    PyObject *own;               /* the names this class declares */
    PyObject *accessors;         /* one per own name */
    PyObject *defaults;          /* _field_defaults */
    PyObject *new_defaults;      /* the constructor's defaults: a list, then a tuple */
    PyObject *factories;         /* the constructor's factories, by field index; NULL if none */
    PyObject *factories_by_name; /* __record_factories__, when the class declares factories */
    PyObject *new;               /* the Constructor, unless the body has a __new__ */
    PyObject *doc;               /* the default __doc__, unless the body has one */
} Parts;

static void
parts_clear(Parts *parts)
{
    Py_CLEAR(parts->names);
    Py_CLEAR(parts->own);
    Py_CLEAR(parts->accessors);
    Py_CLEAR(parts->defaults);
    Py_CLEAR(parts->new_defaults);
    Py_CLEAR(parts->factories);
    Py_CLEAR(parts->factories_by_name);
    Py_CLEAR(parts->new);
    Py_CLEAR(parts->doc);
}

/* 1 if annotation declares a ClassVar or may, as _compat.is_classvar tells:
 * strings are not parsed here, and any that mention ClassVar go to the
 * Python path; an object is typing.ClassVar, or has it as __origin__, looked
 * up only if typing is imported (a ClassVar object implies it is). */
static int
may_be_classvar(PyObject *annotation)
{
    /* None: also what deferred_field_names gives for every field. */
    if (PyType_Check(annotation) || annotation == Py_None) {
        return 0;
    }
    if (PyUnicode_CheckExact(annotation)) {
        Py_ssize_t found = PyUnicode_Find(annotation, str_classvar, 0,
                                          PyUnicode_GET_LENGTH(annotation), 1);
        return found == -2 ? -1 : found >= 0;
    }
    if (PyUnicode_Check(annotation)) {
        return 1; /* a str subclass: the Python path reads it */
    }
    PyObject *typing = PyImport_GetModule(str_typing);
    if (typing == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *classvar = PyObject_GetAttr(typing, str_classvar);
    Py_DECREF(typing);
    if (classvar == NULL) {
        return -1;
    }
    int found = annotation == classvar;
    if (!found) {
        PyObject *origin = PyObject_GetAttr(annotation, str_origin);
        if (origin == NULL) {
            if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
                PyErr_Clear();
            }
            else {
                Py_DECREF(classvar);
                return -1;
            }
        }
        found = origin == classvar;
        Py_XDECREF(origin);
    }
    Py_DECREF(classvar);
    return found;
}

/* The keywords of Python 3.10 to 3.15, as keyword.kwlist lists them (soft
 * keywords are valid names). tests/test_accelerator_builder.py checks every
 * word of keyword.kwlist against the builders, on each version it runs on. */
static const char *const python_keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break",
    "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
    "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not",
    "or", "pass", "raise", "return", "try", "while", "with", "yield",
};

/* 1 if name, an exact str, is a keyword (keyword.iskeyword); no Python code
 * runs here. */
static int
is_python_keyword(PyObject *name)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    if (!PyUnicode_IS_ASCII(name) || length < 2 || length > 8) {
        return 0;
    }
    const char *text = (const char *)PyUnicode_DATA(name);
    for (size_t i = 0; i < sizeof(python_keywords) / sizeof(python_keywords[0]); i++) {
        if (strlen(python_keywords[i]) == (size_t)length
            && memcmp(python_keywords[i], text, (size_t)length) == 0) {
            return 1;
        }
    }
    return 0;
}

/* 1 if name passes every check of _rules.invalid_name_message, 0 if it may
 * not: then _builder.check_field_name decides, and words the error. */
static int
plainly_valid_name(Builder *self, PyObject *name)
{
    if (!PyUnicode_CheckExact(name)) {
        return 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(name) < 0) {
        return -1;
    }
#endif
    if (PyUnicode_GET_LENGTH(name) == 0 || PyUnicode_READ_CHAR(name, 0) == '_'
        || PyUnicode_IsIdentifier(name) != 1) {
        return 0;
    }
    return !is_python_keyword(name);
}

/* Whether _builder may refuse value as a default: isinstance(value,
 * MUTABLE_DEFAULT_TYPES), or a class named as another library's field object
 * (the names of _rules.FOREIGN_FIELD_TYPES, which checks the module too);
 * without a call for the immutable builtins that most defaults are. */
static int
is_refused_default(Builder *self, PyObject *value)
{
    PyTypeObject *type = Py_TYPE(value);
    if (value == Py_None || type == &PyLong_Type || type == &PyUnicode_Type
        || type == &PyFloat_Type || type == &PyBool_Type || type == &PyTuple_Type
        || type == &PyBytes_Type || type == &PyFrozenSet_Type) {
        return 0;
    }
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE)
        && (strcmp(type->tp_name, "Field") == 0 || strcmp(type->tp_name, "_CountingAttr") == 0
            || strcmp(type->tp_name, "Factory") == 0)) {
        return 1;
    }
    PyObject *mutable_types = HELPER(self, mutable_types);
    return mutable_types == NULL ? -1 : PyObject_IsInstance(value, mutable_types);
}

/* accessor(index, doc). CPython's _tuplegetter is a type whose __init__ is
 * object's: its tp_new alone makes it, with less call overhead, from an
 * argument tuple (*scratch) reused while no one else holds it. */
static PyObject *
make_accessor(Builder *self, PyObject **scratch, PyObject *index, PyObject *doc)
{
    PyObject *maker = self->accessor;
    if (PyType_Check(maker) && ((PyTypeObject *)maker)->tp_new != NULL
        && ((PyTypeObject *)maker)->tp_init == PyBaseObject_Type.tp_init) {
        if (*scratch == NULL || Py_REFCNT(*scratch) != 1) {
            Py_XSETREF(*scratch, PyTuple_New(2));
            if (*scratch == NULL) {
                return NULL;
            }
        }
        PyObject **items = ((PyTupleObject *)*scratch)->ob_item;
        Py_XSETREF(items[0], Py_NewRef(index));
        Py_XSETREF(items[1], Py_NewRef(doc));
        return ((PyTypeObject *)maker)->tp_new((PyTypeObject *)maker, *scratch, NULL);
    }
    PyObject *arguments[] = {index, doc};
    return PyObject_Vectorcall(maker, arguments, 2, NULL);
}

/* _builder.check_field_name: refuse name as a field of record_name with
 * the Python function's error, unless it is known valid (_builder's set of
 * checked names, which a plainly valid exact str joins here). */
static int
check_field_name(Builder *self, PyObject *record_name, PyObject *name)
{
    /* An exact str (collect_fields declines others): no Python code runs in
     * the set's lookup. */
    int known = PySet_Contains(self->valid_names, name);
    if (known == 0 && (known = plainly_valid_name(self, name)) == 1) {
        if (PySet_GET_SIZE(self->valid_names) > 4096 && PySet_Clear(self->valid_names) < 0) {
            return -1;
        }
        if (PySet_Add(self->valid_names, name) < 0) {
            return -1;
        }
    }
    if (known != 0) {
        return known < 0 ? -1 : 0;
    }
    PyObject *check = HELPER(self, check_field_name);
    PyObject *checked = check == NULL ? NULL
                                      : PyObject_CallFunctionObjArgs(check, record_name, name, NULL);
    if (checked == NULL) {
        return -1;
    }
    Py_DECREF(checked);
    return 0;
}

/* _builder.field_accessor: the accessor of field name at index, of the
 * sealed class cls. A member descriptor if cls is being built as a record
 * (prepare_allocation), with its room first (Python code may run before the
 * build ends, and find the descriptor), where its layout has room for the
 * item, as member() requires (the room of its fields so far, and the next);
 * else, or when its docstring holds a NUL (which a member's C string would
 * cut), the bounds-checked accessor (made with *scratch, see
 * make_accessor). A field of either kind gets its room, so that the next
 * fits. */
static PyObject *
field_accessor(Builder *self, PyTypeObject *cls, PyObject *name, Py_ssize_t index, PyObject *doc,
               PyObject **scratch)
{
    Py_ssize_t nul = PyUnicode_Check(doc) ? PyUnicode_FindChar(doc, 0, 0, PY_SSIZE_T_MAX, 1) : -1;
    if (nul == -2) {
        return NULL;
    }
    if (MEMBERS_ARE_FASTER && is_building(cls) && index < room_in_layout(cls)) {
        if (lay_out_members(cls, index + 1) < 0) {
            return NULL;
        }
        if (nul < 0) {
            return make_member(cls, name, index, doc);
        }
    }
    PyObject *index_object = PyLong_FromSsize_t(index);
    if (index_object == NULL) {
        return NULL;
    }
    PyObject *accessor = make_accessor(self, scratch, index_object, doc);
    Py_DECREF(index_object);
    return accessor;
}

/* A plain default value: into _field_defaults and the constructor's
 * defaults, unless it is mutable (then the Python path words the error). */
static int
add_default(Builder *self, Parts *parts, PyObject *name, PyObject *value, int *has_default)
{
    int refused = is_refused_default(self, value);
    if (refused != 0) {
        return refused < 0 ? BUILD_FAILED : BUILD_DECLINED;
    }
    if (PyDict_SetItem(parts->defaults, name, value) < 0
        || PyList_Append(parts->new_defaults, value) < 0) {
        return BUILD_FAILED;
    }
    *has_default = 1;
    return BUILD_DONE;
}

/* A field's default given as field(...), as _builder.add_field_spec takes
 * it. *has_default: whether a field so far has a default; *doc: the
 * accessor's docstring, replaced by the field's own if it has one. */
static int
add_field_spec(Builder *self, Parts *parts, PyObject *spec, PyObject *name, Py_ssize_t index,
               int *has_default, PyObject **doc)
{
    int outcome = BUILD_FAILED;
    PyObject *key = NULL, *field_doc = NULL;
    PyObject *default_value = PyObject_GetAttr(spec, str_default);
    PyObject *factory = default_value == NULL ? NULL : PyObject_GetAttr(spec, str_default_factory);
    if (default_value == NULL || factory == NULL
        || (field_doc = PyObject_GetAttr(spec, str_doc)) == NULL) {
        goto done;
    }
    if (field_doc != Py_None && !PyUnicode_Check(field_doc)) {
        outcome = BUILD_DECLINED; /* Python says which record and field */
        goto done;
    }
    if (factory != self->missing) {
        if (default_value != self->missing || !PyCallable_Check(factory)) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        if ((key = PyLong_FromSsize_t(index)) == NULL
            || (parts->factories == NULL && (parts->factories = PyDict_New()) == NULL)
            || PyDict_SetItem(parts->factories, key, factory) < 0
            || PyList_Append(parts->new_defaults, self->factory_marker) < 0) {
            goto done;
        }
        *has_default = 1;
    }
    else if (default_value != self->missing) {
        int added = add_default(self, parts, name, default_value, has_default);
        if (added != BUILD_DONE) {
            outcome = added;
            goto done;
        }
    }
    else if (*has_default) {
        outcome = BUILD_DECLINED; /* a field without a default after one with */
        goto done;
    }
    if (field_doc != Py_None) {
        Py_SETREF(*doc, Py_NewRef(field_doc));
    }
    outcome = BUILD_DONE;

done:
    Py_XDECREF(field_doc);
    Py_XDECREF(key);
    Py_XDECREF(default_value);
    Py_XDECREF(factory);
    return outcome;
}

/* The fields cls declares in annotations, checked and with their accessors,
 * as _builder.collect_fields makes them, in its steps: a ClassVar (declined
 * here); check_field_name, and no inherited name (declined); add_default,
 * or add_field_spec for field(...), or no default after one (declined);
 * field_accessor. The helpers it calls may run any Python code: every
 * object used across them is held by a strong reference. */
static int
collect_fields(Builder *self, Parts *parts, PyTypeObject *cls, PyObject *record_name,
               PyTypeObject *source, PyObject *inherited, PyObject *annotations)
{
    Py_ssize_t ninherited = PyTuple_GET_SIZE(inherited);
    Py_ssize_t count = PyDict_GET_SIZE(annotations);
    int outcome = BUILD_FAILED;
    PyObject *inherited_defaults = lookup_ref(source, str_field_defaults);
    PyObject *inherited_factories = lookup_ref(source, str_factories);
    PyObject *docs = NULL, *name = NULL, *annotation = NULL, *value = NULL, *doc = NULL;
    PyObject *arguments = NULL;
    if (inherited_defaults == NULL || !PyDict_CheckExact(inherited_defaults)
        || inherited_factories == NULL || !PyDict_CheckExact(inherited_factories)
        || PyDict_GET_SIZE(inherited_factories) != 0
        || (PyDict_GET_SIZE(inherited_defaults) != 0 && ninherited == 0)) {
        outcome = BUILD_DECLINED;
        goto done;
    }
    int has_default = PyDict_GET_SIZE(inherited_defaults) != 0;
    parts->defaults = has_default ? PyDict_Copy(inherited_defaults) : PyDict_New();
    if (parts->defaults == NULL || (parts->new_defaults = PyList_New(0)) == NULL
        || (parts->own = PyTuple_New(count)) == NULL
        || (parts->accessors = PyTuple_New(count)) == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; has_default && i < ninherited; i++) {
        PyObject *default_value;
        int found = dict_get_ref(inherited_defaults, PyTuple_GET_ITEM(inherited, i),
                                 &default_value);
        int failed = found < 0 || (found && PyList_Append(parts->new_defaults, default_value) < 0);
        Py_XDECREF(default_value);
        if (failed) {
            goto done;
        }
    }
    if (PyList_GET_SIZE(self->docs) < ninherited + count) {
        docs = PyObject_CallFunction(self->default_docs, "n", ninherited + count);
    }
    else {
        docs = Py_NewRef(self->docs); /* the same list, long enough already */
    }
    if (docs == NULL) {
        goto done;
    }
    if (!PyList_Check(docs)) {
        outcome = BUILD_DECLINED;
        goto done;
    }
    PyObject *namespace = cls->tp_dict; /* a type's dict lives as long as the type */
    Py_ssize_t position = 0, field = 0;
    for (;;) {
        /* Under the dict's lock: another thread may change it meanwhile. */
        PyObject *next_name = NULL, *next_annotation = NULL;
        Py_BEGIN_CRITICAL_SECTION(annotations);
        PyObject *key, *item;
        if (PyDict_Next(annotations, &position, &key, &item)) {
            next_name = Py_NewRef(key);
            next_annotation = Py_NewRef(item);
        }
        Py_END_CRITICAL_SECTION();
        Py_XSETREF(name, next_name);
        Py_XSETREF(annotation, next_annotation);
        if (name == NULL) {
            break;
        }
        Py_ssize_t index = ninherited + field;
        /* The Python calls below could change the annotations or the docs:
         * then the Python path words what happens. */
        if (PyDict_GET_SIZE(annotations) != count || field >= count
            || PyList_GET_SIZE(docs) <= index) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        int classvar = may_be_classvar(annotation);
        if (classvar != 0 || !PyUnicode_CheckExact(name)) {
            outcome = classvar < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        if (check_field_name(self, record_name, name) < 0) {
            goto done; /* the error _builder raises for this field */
        }
        int redeclared = PySequence_Contains(inherited, name);
        if (redeclared != 0) {
            outcome = redeclared < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        if (PyList_GET_SIZE(docs) <= index) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        Py_XSETREF(doc, Py_NewRef(PyList_GET_ITEM(docs, index)));
        Py_CLEAR(value);
        dict_get_ref(namespace, name, &value);
        if (value == NULL) {
            if (PyErr_Occurred()) {
                goto done;
            }
            if (has_default) {
                outcome = BUILD_DECLINED; /* a field without a default after one with */
                goto done;
            }
        }
        else {
            int added = Py_IS_TYPE(value, (PyTypeObject *)self->field_type)
                ? add_field_spec(self, parts, value, name, index, &has_default, &doc)
                : add_default(self, parts, name, value, &has_default);
            if (added != BUILD_DONE) {
                outcome = added;
                goto done;
            }
        }
        PyObject *accessor = field_accessor(self, cls, name, index, doc, &arguments);
        if (accessor == NULL) {
            goto done;
        }
        if (field >= count) { /* the dict grew during the calls above */
            Py_DECREF(accessor);
            outcome = BUILD_DECLINED;
            goto done;
        }
        PyTuple_SET_ITEM(parts->accessors, field, accessor);
        PyTuple_SET_ITEM(parts->own, field, Py_NewRef(name));
        field++;
    }
    outcome = field == count ? BUILD_DONE : BUILD_DECLINED;

done:
    Py_XDECREF(inherited_defaults);
    Py_XDECREF(inherited_factories);
    Py_XDECREF(docs);
    Py_XDECREF(name);
    Py_XDECREF(annotation);
    Py_XDECREF(value);
    Py_XDECREF(doc);
    Py_XDECREF(arguments);
    return outcome;
}

/* The code of __new__ for fields names (factory_indices: a tuple of the
 * indexes of fields with a factory), from _codegen.constructor_code: with
 * closure, a record's (what it calls in closure cells), else
 * records.namedtuple's (in its globals). A shape seen before is found in
 * _codegen's own cache, by the key it uses, with no call into Python. */
static PyObject *
constructor_code(Builder *self, PyObject *names, PyObject *factory_indices, int closure)
{
    PyObject *flag = closure ? Py_True : Py_False;
    PyObject *key = PyTuple_Pack(3, names, factory_indices, flag);
    if (key == NULL) {
        return NULL;
    }
    /* Held as it is read: another thread's build may evict it meanwhile. */
    PyObject *code;
    dict_get_ref(self->codes, key, &code);
    Py_DECREF(key);
    if (code == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        code = PyObject_CallFunctionObjArgs(self->constructor_code, names, factory_indices, flag,
                                            NULL);
        if (code == NULL) {
            return NULL;
        }
    }
    if (!PyCode_Check(code)) {
        Py_DECREF(code);
        PyErr_SetString(PyExc_TypeError, "constructor_code() must return a code object");
        return NULL;
    }
    return code;
}

/* The cells the __new__ of owner may read, by name: _tuple_new, _owner,
 * _incomplete, and with factories _FACTORY and one _factory_<index> per
 * factory, as _codegen.closure_of gives them; *indices: the factories'
 * indexes. */
static PyObject *
closure_cells(Builder *self, PyTypeObject *owner, PyObject *factories, PyObject **indices)
{
    PyObject *cells = PyDict_New();
    PyObject *owner_cell = PyCell_New((PyObject *)owner);
    *indices = factories == NULL ? Py_NewRef(empty_tuple) : PyList_New(0);
    int failed = cells == NULL || owner_cell == NULL || *indices == NULL
                 || PyDict_SetItemString(cells, "_tuple_new", self->tuple_new_cell) < 0
                 || PyDict_SetItemString(cells, "_incomplete", self->incomplete_cell) < 0
                 || PyDict_SetItemString(cells, "_owner", owner_cell) < 0;
    Py_XDECREF(owner_cell);
    if (failed) {
        goto error;
    }
    if (factories == NULL) {
        return cells;
    }
    if (PyDict_SetItemString(cells, "_FACTORY", self->factory_cell) < 0) {
        goto error;
    }
    Py_ssize_t position = 0;
    PyObject *index, *factory;
    while (PyDict_Next(factories, &position, &index, &factory)) {
        PyObject *name = PyUnicode_FromFormat("_factory_%S", index);
        PyObject *cell = name == NULL ? NULL : PyCell_New(factory);
        int failed = cell == NULL || PyDict_SetItem(cells, name, cell) < 0
                     || PyList_Append(*indices, index) < 0;
        Py_XDECREF(name);
        Py_XDECREF(cell);
        if (failed) {
            goto error;
        }
    }
    /* Indexes were added in field order: already sorted. */
    Py_SETREF(*indices, PyList_AsTuple(*indices));
    if (*indices == NULL) {
        goto error;
    }
    return cells;

error:
    Py_XDECREF(cells);
    Py_CLEAR(*indices);
    return NULL;
}

/* The closure of a function of code: the cells named by its co_freevars,
 * in that order, each from cells; an error for a name cells lacks, so that
 * the closure always has as many cells as the code reads. */
static PyObject *
closure_of(PyObject *code, PyObject *cells)
{
    PyObject *names = PyObject_GetAttrString(code, "co_freevars");
    if (names == NULL) {
        return NULL;
    }
    PyObject *closure = PyTuple_Check(names) ? PyTuple_New(PyTuple_GET_SIZE(names)) : NULL;
    for (Py_ssize_t i = 0; closure != NULL && i < PyTuple_GET_SIZE(names); i++) {
        PyObject *cell = PyDict_GetItemWithError(cells, PyTuple_GET_ITEM(names, i));
        if (cell == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_SystemError, "a generated __new__ reads an unknown cell");
            }
            Py_CLEAR(closure);
            break;
        }
        PyTuple_SET_ITEM(closure, i, Py_NewRef(cell));
    }
    if (closure == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "co_freevars is not a tuple");
    }
    Py_DECREF(names);
    return closure;
}

/* 0 if code reads no closure cell (records.namedtuple's __new__ gets none),
 * else -1 with an error: a function of it would read past its closure. */
static int
no_free_variables(PyObject *code)
{
    PyObject *names = PyObject_GetAttrString(code, "co_freevars");
    int none = names != NULL && PyTuple_Check(names) && PyTuple_GET_SIZE(names) == 0;
    Py_XDECREF(names);
    if (!none && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "a generated __new__ reads closure cells it lacks");
    }
    return none ? 0 : -1;
}

/* The globals of a record's __new__, as _codegen.module_globals gives them:
 * the namespace of its module where it is imported, as for a function
 * written there; for a class no imported module holds (its __module__ is
 * "builtins", as for a class statement exec'd in a plain dict, or names no
 * imported module), the globals the class statement runs in: those of the
 * nearest frame whose globals name module, else of the nearest frame outside
 * records; else BASE_GLOBALS. */
static PyObject *
module_globals(Builder *self, PyObject *module)
{
    if (PyUnicode_CheckExact(module) && PyUnicode_CompareWithASCIIString(module, "builtins") != 0) {
        PyObject *found = loaded_module(module);
        if (found != NULL) {
            PyObject *namespace = Py_XNewRef(PyModule_GetDict(found));
            Py_DECREF(found);
            if (namespace != NULL) {
                return namespace;
            }
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    /* The class statement's frame is the one whose globals name module
     * ("builtins" where they name none); failing that (Record.define given a
     * module), the nearest frame outside records. */
    PyObject *nearest = NULL;
    PyFrameObject *frame = PyEval_GetFrame(); /* borrowed */
    Py_XINCREF(frame);
    while (frame != NULL) {
#if PY_VERSION_HEX >= 0x030B0000
        PyObject *globals = PyFrame_GetGlobals(frame);
#else
        PyObject *globals = Py_XNewRef(frame->f_globals);
#endif
        if (globals != NULL && PyDict_Check(globals)) {
            PyObject *name;
            if (dict_get_ref(globals, str_name, &name) < 0) {
                Py_DECREF(globals);
                Py_DECREF(frame);
                Py_XDECREF(nearest);
                return NULL;
            }
            int named = PyUnicode_CheckExact(module)
                        && (name == NULL
                                ? PyUnicode_CompareWithASCIIString(module, "builtins") == 0
                                : PyUnicode_CheckExact(name) && PyUnicode_Compare(name, module) == 0);
            if (named) {
                Py_XDECREF(name);
                Py_DECREF(frame);
                Py_XDECREF(nearest);
                return globals;
            }
            int ours = name != NULL && PyUnicode_CheckExact(name)
                       && PyUnicode_Tailmatch(name, str_records_prefix, 0, PY_SSIZE_T_MAX, -1) == 1;
            Py_XDECREF(name);
            if (nearest == NULL && !ours) {
                nearest = Py_NewRef(globals);
            }
        }
        Py_XDECREF(globals);
        Py_SETREF(frame, PyFrame_GetBack(frame));
    }
    if (nearest != NULL) {
        return nearest;
    }
    return Py_NewRef(self->base_globals);
}

/* The __new__ of cls (a Constructor), as _builder.make_new makes it. Its
 * annotations are those of the fields, or, where the class defers its own
 * (deferred: 3.14+), read from the classes when asked. */
static PyObject *
make_new(Builder *self, Parts *parts, PyTypeObject *cls, PyTypeObject *source,
         PyObject *annotations, Py_ssize_t ninherited, int deferred)
{
    PyObject *globals = NULL, *cells = NULL, *indices = NULL, *code = NULL, *closure = NULL;
    PyObject *function = NULL, *qualname = NULL, *module = NULL, *types = NULL, *result = NULL;
    /* cls.__module__ of a heap type is its dict's entry */
    dict_get_ref(cls->tp_dict, str_module, &module);
    if (module == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_AttributeError, str_module);
        }
        goto done;
    }
    if ((cells = closure_cells(self, cls, parts->factories, &indices)) == NULL
        || (globals = module_globals(self, module)) == NULL) {
        goto done;
    }
    qualname = PyUnicode_Concat(((PyHeapTypeObject *)cls)->ht_qualname, str_dot_new);
    if (qualname == NULL || (code = constructor_code(self, parts->names, indices, 1)) == NULL
        || (closure = closure_of(code, cells)) == NULL
        || (function = PyFunction_NewWithQualName(code, globals, qualname)) == NULL
        || PyFunction_SetClosure(function, closure) < 0) {
        goto done;
    }
    if (PyTuple_GET_SIZE(parts->new_defaults) != 0
        && PyFunction_SetDefaults(function, parts->new_defaults) < 0) {
        goto done;
    }
    /* As function.__module__ = module does: it is a plain member. */
    Py_XSETREF(((PyFunctionObject *)function)->func_module, Py_NewRef(module));
    if (deferred) {
        PyObject *annotate_new = HELPER(self, annotate_new);
        PyObject *annotate = annotate_new == NULL ? NULL
                                                  : PyMethod_New(annotate_new, (PyObject *)cls);
        int failed = annotate == NULL
                     || PyObject_SetAttr(function, str_annotate, annotate) < 0;
        Py_XDECREF(annotate);
        if (failed) {
            goto done;
        }
    }
    else if (ninherited) {
        PyObject *field_types = HELPER(self, field_types);
        types = field_types == NULL ? NULL
                                    : PyObject_CallFunctionObjArgs(field_types, (PyObject *)source,
                                                                   self->record, NULL);
        if (types == NULL) {
            goto done;
        }
        if (!PyDict_Check(types)) {
            PyErr_SetString(PyExc_TypeError, "field_types() must return a dict");
            goto done;
        }
        if (PyDict_Update(types, annotations) < 0) {
            goto done;
        }
    }
    else if ((types = PyDict_Copy(annotations)) == NULL) {
        goto done;
    }
    if (types != NULL && PyFunction_SetAnnotations(function, types) < 0) {
        goto done;
    }
    result = make_constructor(function, parts->names, parts->factories, self->factory_marker);

done:
    Py_XDECREF(globals);
    Py_XDECREF(cells);
    Py_XDECREF(indices);
    Py_XDECREF(code);
    Py_XDECREF(closure);
    Py_XDECREF(function);
    Py_XDECREF(qualname);
    Py_XDECREF(module);
    Py_XDECREF(types);
    return result;
}

/* "Point(x, y)": the __doc__ of a record class whose body has none. */
static PyObject *
default_class_doc(PyObject *record_name, PyObject *names)
{
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    Py_ssize_t length = PyUnicode_GET_LENGTH(record_name) + 2 + (count ? 2 * (count - 1) : 0);
    Py_UCS4 widest = PyUnicode_MAX_CHAR_VALUE(record_name);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        length += PyUnicode_GET_LENGTH(name);
        widest = Py_MAX(widest, PyUnicode_MAX_CHAR_VALUE(name));
    }
    PyObject *doc = PyUnicode_New(length, widest);
    if (doc == NULL) {
        return NULL;
    }
    Py_ssize_t at = PyUnicode_GET_LENGTH(record_name);
    PyUnicode_CopyCharacters(doc, 0, record_name, 0, at);
    PyUnicode_WriteChar(doc, at++, '(');
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (i > 0) {
            PyUnicode_WriteChar(doc, at++, ',');
            PyUnicode_WriteChar(doc, at++, ' ');
        }
        PyUnicode_CopyCharacters(doc, at, name, 0, PyUnicode_GET_LENGTH(name));
        at += PyUnicode_GET_LENGTH(name);
    }
    PyUnicode_WriteChar(doc, at, ')');
    return doc;
}

/* __record_factories__ of a class whose own fields have factories. */
static PyObject *
factories_by_name(Parts *parts)
{
    PyObject *result = PyDict_New();
    Py_ssize_t position = 0;
    PyObject *index, *factory;
    while (result != NULL && PyDict_Next(parts->factories, &position, &index, &factory)) {
        PyObject *name = PyTuple_GET_ITEM(parts->names, PyLong_AsSsize_t(index));
        if (PyDict_SetItem(result, name, factory) < 0) {
            Py_CLEAR(result);
        }
    }
    return result;
}

/* Everything _builder.compute_parts computes for cls, into parts. */
static int
compute_parts(Builder *self, Parts *parts, PyTypeObject *cls)
{
    PyObject *namespace = cls->tp_dict;
    PyObject *bases = cls->tp_bases;
    if (Py_TYPE(cls) != &PyType_Type || !(cls->tp_flags & Py_TPFLAGS_HEAPTYPE)
        || namespace == NULL || bases == NULL || PyTuple_GET_SIZE(bases) != 1) {
        return BUILD_DECLINED;
    }
    /* Errors in the body, and generics (their __class_getitem__). */
    PyObject *declined_names[] = {str_fields, str_field_defaults, str_factories, str_init,
                                  str_parameters};
    for (size_t i = 0; i < sizeof(declined_names) / sizeof(declined_names[0]); i++) {
        int found = PyDict_Contains(namespace, declined_names[i]);
        if (found != 0) {
            return found < 0 ? BUILD_FAILED : BUILD_DECLINED;
        }
    }
    /* A __post_init__ anywhere in the MRO: _builder says why it is refused. */
    if (_PyType_Lookup(cls, str_post_init) != NULL) {
        return BUILD_DECLINED;
    }
    int outcome = BUILD_FAILED;
    /* The name as the build starts, as _builder reads it: held, since code
     * that runs during the build may rename the class. */
    PyObject *record_name = Py_NewRef(((PyHeapTypeObject *)cls)->ht_name);
    PyTypeObject *source = (PyTypeObject *)Py_NewRef(PyTuple_GET_ITEM(bases, 0));
    PyObject *inherited = NULL, *annotations = NULL;
    int deferred = 0;
    if (!(source->tp_flags & Py_TPFLAGS_HEAPTYPE) || source->tp_dict == NULL) {
        outcome = BUILD_DECLINED; /* not a record: Record and its subclasses are heap types */
        goto done;
    }
    dict_get_ref(source->tp_dict, str_fields, &inherited);
    if (inherited == NULL || !PyTuple_CheckExact(inherited)) {
        outcome = PyErr_Occurred() ? BUILD_FAILED : BUILD_DECLINED;
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inherited); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(inherited, i))) {
            outcome = BUILD_DECLINED;
            goto done;
        }
    }
    dict_get_ref(namespace, str_annotations, &annotations);
    if (annotations == NULL && PyErr_Occurred()) {
        goto done;
    }
#if PY_VERSION_HEX >= 0x030E0000
    if (annotations == NULL) {
        /* Deferred (PEP 649): read as source text, evaluating nothing. */
        int found = PyDict_Contains(namespace, str_annotate_func);
        if (found < 0) {
            goto done;
        }
        deferred = found;
        if (deferred) {
            /* Only its identity: deferred_field_names holds the function. */
            PyObject *annotate = PyDict_GetItemWithError(namespace, str_annotate_func);
            Py_XINCREF(annotate);
            annotations = annotate == NULL ? NULL : deferred_field_names(annotate);
            Py_XDECREF(annotate);
            if (annotations == NULL) {
                outcome = PyErr_Occurred() ? BUILD_FAILED : BUILD_DECLINED;
                goto done;
            }
        }
    }
#endif
    if (annotations != NULL && PyDict_CheckExact(annotations) && PyDict_GET_SIZE(annotations)) {
        int collected = collect_fields(self, parts, cls, record_name, source, inherited,
                                       annotations);
        if (collected != BUILD_DONE) {
            outcome = collected;
            goto done;
        }
        Py_ssize_t ninherited = PyTuple_GET_SIZE(inherited);
        parts->names = ninherited ? PySequence_Concat(inherited, parts->own)
                                  : Py_NewRef(parts->own);
        if (parts->names == NULL) {
            goto done;
        }
        Py_SETREF(parts->new_defaults, PyList_AsTuple(parts->new_defaults));
        if (parts->new_defaults == NULL) {
            goto done;
        }
        if (parts->factories != NULL
            && (parts->factories_by_name = factories_by_name(parts)) == NULL) {
            goto done;
        }
        int found = PyDict_Contains(namespace, str_new);
        if (found < 0) {
            goto done;
        }
        if (!found
            && (parts->new = make_new(self, parts, cls, source, annotations, ninherited,
                                      deferred)) == NULL) {
            goto done;
        }
    }
    else {
        parts->names = Py_NewRef(inherited);
    }
    PyObject *doc = PyDict_GetItemWithError(namespace, str_doc_attribute); /* identity only */
    if (doc == NULL && PyErr_Occurred()) {
        goto done;
    }
    if ((doc == NULL || doc == Py_None)
        && (parts->doc = default_class_doc(record_name, parts->names)) == NULL) {
        goto done;
    }
    outcome = BUILD_DONE;

done:
    Py_DECREF(record_name);
    Py_DECREF(source);
    Py_XDECREF(inherited);
    Py_XDECREF(annotations);
    return outcome;
}

/* Write parts into the sealed class, in _builder.write_parts' order, then
 * let its calls take the C constructor. No Python code runs here. */
static int
write_parts(Parts *parts, PyTypeObject *cls)
{
    PyObject *namespace = cls->tp_dict;
    Graveyard graveyard;
    graveyard_init(&graveyard);
    int failed = 0;
    if (parts->own != NULL) {
        Py_ssize_t reach = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(parts->accessors); i++) {
            reach = widen_reach(cls, reach, PyTuple_GET_ITEM(parts->accessors, i));
        }
        failed = lay_out_members(cls, reach) < 0;
        /* __new__ before the accessors in the dict: see write_member. */
        if (!failed && parts->new != NULL) {
            failed = write_member(&graveyard, namespace, str_new, parts->new) < 0;
        }
        for (Py_ssize_t i = 0; !failed && i < PyTuple_GET_SIZE(parts->own); i++) {
            failed = write_member(&graveyard, namespace, PyTuple_GET_ITEM(parts->own, i),
                                  PyTuple_GET_ITEM(parts->accessors, i)) < 0;
        }
        failed = failed || write_member(&graveyard, namespace, str_fields, parts->names) < 0
                 || write_member(&graveyard, namespace, str_field_defaults, parts->defaults) < 0
                 || (parts->factories_by_name != NULL
                     && write_member(&graveyard, namespace, str_factories,
                                     parts->factories_by_name) < 0);
        int found = failed ? 0 : PyDict_Contains(namespace, str_match_args);
        failed = failed || found < 0
                 || (!found && PyDict_SetItem(namespace, str_match_args, parts->names) < 0);
    }
    if (!failed && parts->doc != NULL) {
        failed = write_member(&graveyard, namespace, str_doc_attribute, parts->doc) < 0;
    }
    /* Record.__record_built__: the class is built. */
    failed = failed || PyDict_SetItem(namespace, str_record_built, Py_True) < 0;
    PyType_Modified(cls);
    if (!failed) {
        finish_allocation(cls);
        enable_constructor(cls);
    }
    graveyard_release(&graveyard);
    return failed ? -1 : 0;
}

/* _builder.build for the common class statement, on a sealed class: one
 * base, plain or field() defaults, no ClassVar, not generic, no metaclass.
 * It declines, having changed nothing, on anything else and on every
 * definition error but an invalid field name. */
static int
build_record(Builder *self, PyTypeObject *cls)
{
    if (!is_sealed(cls)) {
        return BUILD_DECLINED; /* _builder forbids attributes instead */
    }
    Parts parts = {0};
    int outcome = compute_parts(self, &parts, cls);
    if (outcome == BUILD_DONE && write_parts(&parts, cls) < 0) {
        outcome = BUILD_FAILED;
    }
    parts_clear(&parts);
    return outcome;
}

/* None once _pickling.register_dill() is called, if dill is loaded (it is
 * done then); None at once if not. */
static PyObject *
registered_with_dill(Builder *self)
{
    PyObject *dill = PyImport_GetModule(str_dill);
    if (dill == NULL) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    Py_DECREF(dill);
    PyObject *register_dill = HELPER(self, register_dill);
    PyObject *done = register_dill == NULL ? NULL : PyObject_CallNoArgs(register_dill);
    if (done == NULL) {
        return NULL;
    }
    STORE_INT(self->dill_registered, PyObject_IsTrue(done) == 1);
    Py_DECREF(done);
    Py_RETURN_NONE;
}

/* _builder.finish(cls, record, sealed, keywords) for a call of
 * __init_subclass__(cls, **keywords) that has keywords or mixins. */
static PyObject *
finish_in_python(Builder *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError,
                     "__init_subclass__() takes 1 positional argument but %zd were given", nargs);
        return NULL;
    }
    PyObject *keywords = PyDict_New();
    if (keywords == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; kwnames != NULL && i < PyTuple_GET_SIZE(kwnames); i++) {
        if (PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
            Py_DECREF(keywords);
            return NULL;
        }
    }
    PyObject *finish = HELPER(self, finish);
    PyObject *result = finish == NULL
                           ? NULL
                           : PyObject_CallFunctionObjArgs(finish, (PyObject *)cls, self->record,
                                                          is_sealed(cls) ? Py_True : Py_False,
                                                          keywords, NULL);
    Py_DECREF(keywords);
    return result;
}

static PyObject *build_marked(Builder *self, PyTypeObject *cls, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames);

/* Record.__init_subclass__(cls, **kwargs), bound to this Builder. */
static PyObject *
builder_init_subclass_call(PyObject *builder, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    Builder *self = (Builder *)builder;
    if (nargs < 1 || !PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "__init_subclass__() needs the new class");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    if (LOAD_UINTPTR(self->measuring) == (uintptr_t)PyThread_get_thread_ident()) {
        self->probe_owns_dict = owns_dict_descriptor(cls);
        /* An immortal class (3.13 free-threaded, once a second thread has
         * existed) has no count to compare: nothing can be sealed. */
        STORE_SSIZE(self->baseline, is_immortal(cls) ? NO_BASELINE : Py_REFCNT(cls));
        Py_RETURN_NONE;
    }
    PyTypeObject *record = (PyTypeObject *)self->record;
    if (!PyType_IsSubtype(cls, record) || cls == record) {
        PyErr_SetString(PyExc_TypeError, "__init_subclass__() needs a subclass of Record");
        return NULL;
    }
    /* Before the mark: loading a helper may import, and measuring the
     * baseline makes a probe class, both running Python code, which must
     * never see a class whose layout is being decided. */
    if (builds_ready(self) < 0 || (LOAD_SSIZE(self->baseline) == -1 && measure_baseline(self) < 0)) {
        return NULL;
    }
    /* Only the first call, the one a class statement makes, may change the
     * layout; what the call does with the class after it is decided is
     * build_marked's. */
    int call = begin_build(cls);
    int hooked = call == CALL_FIRST ? hook_before_record(cls, record) : 1;
    int decided = hooked != 0 ? 0 : may_seal_here(self, cls);
    int sealed = decided > 0 ? seal_type(cls) : 0;
    if (hooked < 0 || decided < 0 || sealed < 0
        || (sealed > 0 && prepare_allocation(cls, record) < 0)) {
        end_build(cls, call);
        return NULL;
    }
    layout_decided(cls);
    PyObject *result = build_marked(self, cls, args, nargs, kwnames);
    end_build(cls, call);
    return result;
}

/* The rest of Record.__init_subclass__(cls, **kwargs) once the layout of
 * cls is decided, while it is marked as being built. */
static PyObject *
build_marked(Builder *self, PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    PyObject *mro = cls->tp_mro;
    int plain = nargs == 1 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)
                && mro != NULL && PyTuple_GET_SIZE(mro) >= 3
                && PyTuple_GET_ITEM(mro, PyTuple_GET_SIZE(mro) - 3) == self->record;
    if (!plain) {
        /* Keywords, or mixins' hooks after Record: _builder.finish calls
         * them, then builds. The layout is decided already. */
        return finish_in_python(self, cls, args, nargs, kwnames);
    }
    int outcome = build_record(self, cls);
    if (outcome < 0) {
        return NULL;
    }
    if (outcome == BUILD_DECLINED) {
        PyObject *build_declined = HELPER(self, build_declined);
        return build_declined == NULL
                   ? NULL
                   : PyObject_CallFunctionObjArgs(build_declined, (PyObject *)cls, self->record,
                                                  NULL);
    }
    return LOAD_INT(self->dill_registered) ? Py_NewRef(Py_None) : registered_with_dill(self);
}

static PyMethodDef init_subclass_def = {
    "__init_subclass__", (PyCFunction)(void (*)(void))builder_init_subclass_call,
    METH_FASTCALL | METH_KEYWORDS,
    "__init_subclass__($builder, cls, /, **kwargs)\n--\n\n"
    "Make the new subclass a record type from its annotations.",
};

/* Builder.init_subclass(): the classmethod to set as Record.__init_subclass__. */
static PyObject *
builder_init_subclass(PyObject *self, PyObject *unused)
{
    PyObject *function = PyCFunction_New(&init_subclass_def, self);
    if (function == NULL) {
        return NULL;
    }
    PyObject *method = PyClassMethod_New(function);
    Py_DECREF(function);
    return method;
}

/* Builder.build(cls): build_record() alone, for tests: True if built, False
 * if declined (or cls is not a new class that records is building, whose
 * dict write() alone may change). */
static PyObject *
builder_build(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        Py_RETURN_FALSE;
    }
    if (builds_ready((Builder *)self) < 0) {
        return NULL;
    }
    PyObject *mark = ((PyTypeObject *)cls)->tp_cache;
    if (mark != mark_deciding && mark != mark_building) {
        Py_RETURN_FALSE;
    }
    int outcome = build_record((Builder *)self, (PyTypeObject *)cls);
    return outcome < 0 ? NULL : PyBool_FromLong(outcome);
}

static PyObject *builder_namedtuple(PyObject *builder, PyObject *const *args, Py_ssize_t nargs);
static PyObject *builder_namedtuple_class(PyObject *builder, PyObject *const *args,
                                          Py_ssize_t nargs);

static PyMethodDef builder_methods[] = {
    {"namedtuple", (PyCFunction)(void (*)(void))builder_namedtuple, METH_FASTCALL,
     "namedtuple(typename, field_names, rename, defaults, module) -> type | None\n\n"
     "The class of records.namedtuple for a call of plain names; None for any other."},
    {"namedtuple_class", (PyCFunction)(void (*)(void))builder_namedtuple_class, METH_FASTCALL,
     "namedtuple_class(typename, fields, parameters, defaults, module) -> type\n\n"
     "The class of records.namedtuple for checked names (records/_namedtuple.py)."},
    {"init_subclass", builder_init_subclass, METH_NOARGS,
     "init_subclass() -> classmethod\n\nRecord.__init_subclass__, served by this Builder."},
    {"helper", builder_helper, METH_O,
     "helper(name) -> object\n\nThe helper so named (helper_sources()), read from where records "
     "keeps it if this Builder has not yet."},
    {"build", builder_build, METH_O,
     "build(cls) -> bool\n\nBuild the new sealed record class cls in C; return False, "
     "having changed nothing, to leave it to records._builder."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.Builder",
    .tp_basicsize = sizeof(Builder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C class builder of one Record class, with the helpers it shares with Python.",
    .tp_new = builder_new,
    .tp_dealloc = (destructor)builder_dealloc,
    .tp_traverse = (traverseproc)builder_traverse,
    .tp_clear = (inquiry)builder_clear,
    .tp_methods = builder_methods,
};
