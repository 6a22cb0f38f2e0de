/*
 * Class building: Record.__init_subclass__ and build(), _record._build's
 * common case.
 *
 * Part of records/_speedups.c, which includes it once, after its interned
 * strings; not compiled on its own.
 */

/* What build() uses from the Python side, given once by configure(). */
static struct {
    PyObject *record;           /* the Record class */
    PyObject *init_subclass;    /* Record.__init_subclass__'s Python function */
    PyObject *build;            /* _record._build(cls): the reference path */
    PyObject *check_field_name; /* _record._check_field_name(record, name): raises */
    PyObject *keywords;         /* _rules.KEYWORDS */
    PyObject *is_classvar;      /* _compat.is_classvar(annotation) */
    PyObject *field_type;       /* _fields.Field */
    PyObject *missing;          /* _fields.MISSING */
    PyObject *factory_marker;   /* _fields.FACTORY */
    PyObject *mutable_types;    /* _rules.MUTABLE_DEFAULT_TYPES */
    PyObject *accessor;         /* _accessors.make_accessor(index, doc) */
    PyObject *docs;             /* _accessors._default_docs: a list that only grows */
    PyObject *extend_docs;      /* _accessors.default_docs(count) */
    PyObject *field_types;      /* _record._field_types(source) */
    PyObject *codes;            /* _codegen._codes: (names, factory indices) -> code */
    PyObject *base_globals;     /* _codegen.BASE_GLOBALS */
    PyObject *make_constructor; /* _codegen.make_constructor(names, defaults, factories) */
} builder;

static PyObject *
records_configure(PyObject *module, PyObject *helpers)
{
    struct {
        const char *name;
        PyObject **slot;
        PyTypeObject *type; /* NULL: any object */
    } table[] = {
        {"Record", &builder.record, &PyType_Type},
        {"init_subclass", &builder.init_subclass, NULL},
        {"build", &builder.build, NULL},
        {"check_field_name", &builder.check_field_name, NULL},
        {"keywords", &builder.keywords, &PyFrozenSet_Type},
        {"is_classvar", &builder.is_classvar, NULL},
        {"Field", &builder.field_type, &PyType_Type},
        {"MISSING", &builder.missing, NULL},
        {"FACTORY", &builder.factory_marker, NULL},
        {"mutable_types", &builder.mutable_types, &PyTuple_Type},
        {"accessor", &builder.accessor, NULL},
        {"docs", &builder.docs, &PyList_Type},
        {"extend_docs", &builder.extend_docs, NULL},
        {"field_types", &builder.field_types, NULL},
        {"codes", &builder.codes, &PyDict_Type},
        {"base_globals", &builder.base_globals, &PyDict_Type},
        {"make_constructor", &builder.make_constructor, NULL},
    };
    const size_t count = sizeof(table) / sizeof(table[0]);
    if (!PyDict_Check(helpers)) {
        PyErr_SetString(PyExc_TypeError, "configure() takes a dict of helpers");
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        PyObject *value = PyDict_GetItemString(helpers, table[i].name);
        if (value == NULL || (table[i].type != NULL && !PyObject_TypeCheck(value, table[i].type))) {
            PyErr_Format(PyExc_TypeError, "configure() needs %s%s%s", table[i].name,
                         table[i].type ? " of type " : "",
                         table[i].type ? table[i].type->tp_name : "");
            return NULL;
        }
    }
    for (size_t i = 0; i < count; i++) {
        Py_XSETREF(*table[i].slot, Py_NewRef(PyDict_GetItemString(helpers, table[i].name)));
    }
    Py_RETURN_NONE;
}

/* What build_record() did with a class. Declined means unchanged: the Python
 * path is to build it. */
enum { BUILD_FAILED = -1, BUILD_DECLINED = 0, BUILD_DONE = 1 };

/* What build_record() computes before it changes the class. */
typedef struct {
    PyObject *names;             /* every field name, inherited first */
    PyObject *own;               /* the names this class declares */
    PyObject *accessors;         /* one per own name */
    PyObject *defaults;          /* _field_defaults */
    PyObject *new_defaults;      /* the constructor's defaults: a list, then a tuple */
    PyObject *factories;         /* the constructor's factories, by field index */
    PyObject *factories_by_name; /* __record_factories__, when there are factories */
    PyObject *new;               /* staticmethod __new__, unless the body has one */
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

/* 1 if annotation declares a ClassVar or may: strings are not parsed here,
 * and any that mention ClassVar go to the Python path. */
static int
may_be_classvar(PyObject *annotation)
{
    if (Py_IS_TYPE(annotation, &PyType_Type)) {
        return 0;
    }
    if (PyUnicode_CheckExact(annotation)) {
        Py_ssize_t found = PyUnicode_Find(annotation, str_classvar, 0,
                                          PyUnicode_GET_LENGTH(annotation), 1);
        return found == -2 ? -1 : found >= 0;
    }
    PyObject *result = PyObject_CallOneArg(builder.is_classvar, annotation);
    if (result == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(result);
    Py_DECREF(result);
    return truth;
}

/* 1 if name passes every check of _rules.invalid_name_message, 0 if it may
 * not: then _record._check_field_name decides, and words the error. */
static int
plainly_valid_name(PyObject *name)
{
    if (!PyUnicode_CheckExact(name)) {
        return 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(name) < 0) {
        return -1;
    }
#endif
    if (PyUnicode_GET_LENGTH(name) == 0
        || PyUnicode_READ_CHAR(name, 0) == '_' || PyUnicode_IsIdentifier(name) != 1) {
        return 0;
    }
    int keyword = PySet_Contains(builder.keywords, name);
    return keyword < 0 ? -1 : !keyword;
}

/* isinstance(value, MUTABLE_DEFAULT_TYPES), without the call for the
 * immutable builtins that most defaults are. */
static int
is_mutable_default(PyObject *value)
{
    PyTypeObject *type = Py_TYPE(value);
    if (value == Py_None || type == &PyLong_Type || type == &PyUnicode_Type
        || type == &PyFloat_Type || type == &PyBool_Type || type == &PyTuple_Type
        || type == &PyBytes_Type || type == &PyFrozenSet_Type) {
        return 0;
    }
    return PyObject_IsInstance(value, builder.mutable_types);
}

/* make_accessor(index, doc). CPython's _tuplegetter is a type whose
 * __init__ is object's: its tp_new alone makes it, with less call overhead,
 * from an argument tuple (*scratch) reused while no one else holds it. */
static PyObject *
make_accessor(PyObject **scratch, PyObject *index, PyObject *doc)
{
    PyObject *maker = builder.accessor;
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

/* A plain default value: into _field_defaults and the constructor's
 * defaults, unless it is mutable (then the Python path words the error). */
static int
add_default(Parts *parts, PyObject *name, PyObject *value, int *has_default)
{
    int mutable = is_mutable_default(value);
    if (mutable != 0) {
        return mutable < 0 ? BUILD_FAILED : BUILD_DECLINED;
    }
    if (PyDict_SetItem(parts->defaults, name, value) < 0
        || PyList_Append(parts->new_defaults, value) < 0) {
        return BUILD_FAILED;
    }
    *has_default = 1;
    return BUILD_DONE;
}

/* A field's default given as field(...), as _record._add_field_default
 * takes it. *has_default: whether a field so far has a default; *doc: the
 * accessor's docstring, replaced by the field's own if it has one. */
static int
add_field_spec(Parts *parts, PyObject *spec, PyObject *name, Py_ssize_t index, int *has_default,
               PyObject **doc)
{
    int outcome = BUILD_FAILED;
    PyObject *key = NULL, *field_doc = NULL;
    PyObject *default_value = PyObject_GetAttr(spec, str_default);
    PyObject *factory = PyObject_GetAttr(spec, str_default_factory);
    if (default_value == NULL || factory == NULL) {
        goto done;
    }
    if (factory != builder.missing) {
        if (default_value != builder.missing || !PyCallable_Check(factory)) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        if ((key = PyLong_FromSsize_t(index)) == NULL
            || PyDict_SetItem(parts->factories, key, factory) < 0
            || PyList_Append(parts->new_defaults, builder.factory_marker) < 0) {
            goto done;
        }
        *has_default = 1;
    }
    else if (default_value != builder.missing) {
        int added = add_default(parts, name, default_value, has_default);
        if (added != BUILD_DONE) {
            outcome = added;
            goto done;
        }
    }
    else if (*has_default) {
        outcome = BUILD_DECLINED; /* a field without a default after one with */
        goto done;
    }
    if ((field_doc = PyObject_GetAttr(spec, str_doc)) == NULL) {
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
 * as the loop in _record._build makes them. */
static int
collect_fields(Parts *parts, PyTypeObject *cls, PyTypeObject *source, PyObject *inherited,
               PyObject *annotations)
{
    PyObject *inherited_defaults = _PyType_Lookup(source, str_field_defaults);
    PyObject *inherited_factories = _PyType_Lookup(source, str_factories);
    Py_ssize_t ninherited = PyTuple_GET_SIZE(inherited);
    Py_ssize_t count = PyDict_GET_SIZE(annotations);
    if (inherited_defaults == NULL || !PyDict_CheckExact(inherited_defaults)
        || inherited_factories == NULL || !PyDict_CheckExact(inherited_factories)
        || PyDict_GET_SIZE(inherited_factories) != 0
        || (PyDict_GET_SIZE(inherited_defaults) != 0 && ninherited == 0)) {
        return BUILD_DECLINED;
    }
    int has_default = PyDict_GET_SIZE(inherited_defaults) != 0;
    parts->defaults = has_default ? PyDict_Copy(inherited_defaults) : PyDict_New();
    if (parts->defaults == NULL || (parts->new_defaults = PyList_New(0)) == NULL
        || (parts->own = PyTuple_New(count)) == NULL
        || (parts->accessors = PyTuple_New(count)) == NULL) {
        return BUILD_FAILED;
    }
    for (Py_ssize_t i = 0; has_default && i < ninherited; i++) {
        PyObject *value = PyDict_GetItemWithError(inherited_defaults, PyTuple_GET_ITEM(inherited, i));
        if (value == NULL ? PyErr_Occurred() != NULL
                          : PyList_Append(parts->new_defaults, value) < 0) {
            return BUILD_FAILED;
        }
    }
    if (PyList_GET_SIZE(builder.docs) < ninherited + count) {
        PyObject *extended = PyObject_CallFunction(builder.extend_docs, "n", ninherited + count);
        if (extended == NULL) {
            return BUILD_FAILED;
        }
        Py_DECREF(extended);
    }
    PyObject *namespace = cls->tp_dict;
    PyObject *record_name = ((PyHeapTypeObject *)cls)->ht_name;
    PyObject *name = NULL, *value = NULL, *doc = NULL, *index_object = NULL, *arguments = NULL;
    int outcome = BUILD_FAILED;
    Py_ssize_t position = 0, field = 0;
    PyObject *key, *annotation;
    while (PyDict_Next(annotations, &position, &key, &annotation)) {
        Py_ssize_t index = ninherited + field;
        /* The Python calls below could change the dict or the docs list:
         * then the Python path words what happens. */
        if (PyDict_GET_SIZE(annotations) != count || field >= count
            || PyList_GET_SIZE(builder.docs) <= index) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        Py_XSETREF(name, Py_NewRef(key));
        Py_INCREF(annotation);
        int classvar = may_be_classvar(annotation);
        Py_DECREF(annotation);
        if (classvar != 0 || !PyUnicode_CheckExact(name)) {
            outcome = classvar < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        int known = plainly_valid_name(name);
        if (known < 0) {
            goto done;
        }
        if (!known) {
            PyObject *checked = PyObject_CallFunctionObjArgs(builder.check_field_name,
                                                             record_name, name, NULL);
            if (checked == NULL) {
                goto done; /* the error _build raises for this field */
            }
            Py_DECREF(checked);
        }
        int redeclared = PySequence_Contains(inherited, name);
        if (redeclared != 0) {
            outcome = redeclared < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        Py_XSETREF(doc, Py_NewRef(PyList_GET_ITEM(builder.docs, index)));
        Py_XSETREF(value, Py_XNewRef(PyDict_GetItemWithError(namespace, name)));
        if (value == NULL) {
            if (PyErr_Occurred()) {
                goto done;
            }
            if (has_default) {
                outcome = BUILD_DECLINED; /* a field without a default after one with */
                goto done;
            }
        }
        else if (!Py_IS_TYPE(value, (PyTypeObject *)builder.field_type)) {
            int added = add_default(parts, name, value, &has_default);
            if (added != BUILD_DONE) {
                outcome = added;
                goto done;
            }
        }
        else {
            int added = add_field_spec(parts, value, name, index, &has_default, &doc);
            if (added != BUILD_DONE) {
                outcome = added;
                goto done;
            }
        }
        Py_XSETREF(index_object, PyLong_FromSsize_t(index));
        if (index_object == NULL) {
            goto done;
        }
        PyObject *accessor = make_accessor(&arguments, index_object, doc);
        if (accessor == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(parts->accessors, field, accessor);
        PyTuple_SET_ITEM(parts->own, field, Py_NewRef(name));
        field++;
    }
    outcome = field == count ? BUILD_DONE : BUILD_DECLINED;

done:
    Py_XDECREF(name);
    Py_XDECREF(value);
    Py_XDECREF(doc);
    Py_XDECREF(index_object);
    Py_XDECREF(arguments);
    return outcome;
}

/* The generated __new__ of a record without factories, from the cached code
 * for its names; NULL without an error on a cache miss. */
static PyObject *
cached_constructor(PyObject *names)
{
    PyObject *key = PyTuple_Pack(2, names, empty_tuple);
    if (key == NULL) {
        return NULL;
    }
    PyObject *code = PyDict_GetItemWithError(builder.codes, key); /* borrowed */
    Py_DECREF(key);
    if (code == NULL || !PyCode_Check(code)) {
        return NULL;
    }
    return PyFunction_New(code, builder.base_globals);
}

/* The staticmethod __new__ of cls, as _record._build makes it. */
static PyObject *
make_new(Parts *parts, PyTypeObject *cls, PyTypeObject *source, PyObject *annotations,
         Py_ssize_t ninherited)
{
    PyObject *function = NULL, *value = NULL, *types = NULL, *result = NULL;
    PyObject *defaults = PyTuple_GET_SIZE(parts->new_defaults) ? parts->new_defaults : Py_None;
    if (PyDict_GET_SIZE(parts->factories) == 0) {
        function = cached_constructor(parts->names);
        if (function == NULL && PyErr_Occurred()) {
            return NULL;
        }
        if (function != NULL && defaults != Py_None && PyFunction_SetDefaults(function, defaults) < 0) {
            goto done;
        }
    }
    if (function == NULL) {
        function = PyObject_CallFunctionObjArgs(builder.make_constructor, parts->names, defaults,
                                                parts->factories, NULL);
        if (function == NULL) {
            return NULL;
        }
    }
    value = PyUnicode_Concat(((PyHeapTypeObject *)cls)->ht_qualname, str_dot_new);
    if (value == NULL || PyObject_SetAttr(function, str_qualname, value) < 0) {
        goto done;
    }
    /* cls.__module__ of a heap type is its dict's entry */
    PyObject *module = PyDict_GetItemWithError(cls->tp_dict, str_module);
    if (module == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_AttributeError, str_module);
        }
        goto done;
    }
    if (PyObject_SetAttr(function, str_module, module) < 0) {
        goto done;
    }
    if (ninherited) {
        types = PyObject_CallOneArg(builder.field_types, (PyObject *)source);
        if (types == NULL) {
            goto done;
        }
        if (!PyDict_Check(types)) {
            PyErr_SetString(PyExc_TypeError, "_field_types() must return a dict");
            goto done;
        }
        if (PyDict_Update(types, annotations) < 0) {
            goto done;
        }
    }
    else if ((types = PyDict_Copy(annotations)) == NULL) {
        goto done;
    }
    if (PyFunction_SetAnnotations(function, types) < 0) {
        goto done;
    }
    result = PyStaticMethod_New(function);

done:
    Py_XDECREF(types);
    Py_XDECREF(value);
    Py_XDECREF(function);
    return result;
}

/* "Point(x, y)": the __doc__ of a record class whose body has none. */
static PyObject *
default_class_doc(PyTypeObject *cls, PyObject *names)
{
    PyObject *record_name = ((PyHeapTypeObject *)cls)->ht_name;
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

/* Everything _record._build computes for cls, into parts. */
static int
compute_parts(Parts *parts, PyTypeObject *cls)
{
    PyObject *namespace = cls->tp_dict;
    PyObject *bases = cls->tp_bases;
    if (Py_TYPE(cls) != &PyType_Type || !(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || namespace == NULL
        || bases == NULL || PyTuple_GET_SIZE(bases) != 1) {
        return BUILD_DECLINED;
    }
    /* Errors in the body, and generics (their __class_getitem__). */
    PyObject *declined_names[] = {str_fields, str_field_defaults, str_factories, str_parameters};
    for (size_t i = 0; i < sizeof(declined_names) / sizeof(declined_names[0]); i++) {
        int found = PyDict_Contains(namespace, declined_names[i]);
        if (found != 0) {
            return found < 0 ? BUILD_FAILED : BUILD_DECLINED;
        }
    }
    PyTypeObject *source = (PyTypeObject *)PyTuple_GET_ITEM(bases, 0);
    if (!(source->tp_flags & Py_TPFLAGS_HEAPTYPE) || source->tp_dict == NULL) {
        return BUILD_DECLINED; /* not a record: Record and its subclasses are heap types */
    }
    PyObject *inherited = PyDict_GetItemWithError(source->tp_dict, str_fields);
    if (inherited == NULL || !PyTuple_CheckExact(inherited)) {
        return PyErr_Occurred() ? BUILD_FAILED : BUILD_DECLINED;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inherited); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(inherited, i))) {
            return BUILD_DECLINED;
        }
    }
    PyObject *annotations = PyDict_GetItemWithError(namespace, str_annotations);
    if (annotations == NULL && PyErr_Occurred()) {
        return BUILD_FAILED;
    }
    if (annotations != NULL && PyDict_CheckExact(annotations) && PyDict_GET_SIZE(annotations)) {
        int collected = collect_fields(parts, cls, source, inherited, annotations);
        if (collected != BUILD_DONE) {
            return collected;
        }
        Py_ssize_t ninherited = PyTuple_GET_SIZE(inherited);
        parts->names = ninherited ? PySequence_Concat(inherited, parts->own) : Py_NewRef(parts->own);
        if (parts->names == NULL) {
            return BUILD_FAILED;
        }
        Py_SETREF(parts->new_defaults, PyList_AsTuple(parts->new_defaults));
        if (parts->new_defaults == NULL) {
            return BUILD_FAILED;
        }
        if (PyDict_GET_SIZE(parts->factories)) {
            if ((parts->factories_by_name = PyDict_New()) == NULL) {
                return BUILD_FAILED;
            }
            Py_ssize_t position = 0;
            PyObject *index, *factory;
            while (PyDict_Next(parts->factories, &position, &index, &factory)) {
                PyObject *name = PyTuple_GET_ITEM(parts->names, PyLong_AsSsize_t(index));
                if (PyDict_SetItem(parts->factories_by_name, name, factory) < 0) {
                    return BUILD_FAILED;
                }
            }
        }
        int found = PyDict_Contains(namespace, str_new);
        if (found < 0) {
            return BUILD_FAILED;
        }
        if (!found
            && (parts->new = make_new(parts, cls, source, annotations, ninherited)) == NULL) {
            return BUILD_FAILED;
        }
    }
    else {
        parts->names = Py_NewRef(inherited);
    }
    PyObject *doc = PyDict_GetItemWithError(namespace, str_doc_attribute);
    if (doc == NULL && PyErr_Occurred()) {
        return BUILD_FAILED;
    }
    if ((doc == NULL || doc == Py_None)
        && (parts->doc = default_class_doc(cls, parts->names)) == NULL) {
        return BUILD_FAILED;
    }
    return BUILD_DONE;
}

/* Write parts into the sealed class: the attributes _record._build gives
 * seal(), in its order, then the C constructor. */
static int
write_parts(Parts *parts, PyTypeObject *cls)
{
    PyObject *namespace = cls->tp_dict;
    if (parts->own != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(parts->own); i++) {
            if (PyDict_SetItem(namespace, PyTuple_GET_ITEM(parts->own, i),
                               PyTuple_GET_ITEM(parts->accessors, i)) < 0) {
                return -1;
            }
        }
        if (PyDict_SetItem(namespace, str_fields, parts->names) < 0
            || PyDict_SetItem(namespace, str_field_defaults, parts->defaults) < 0
            || (parts->factories_by_name != NULL
                && PyDict_SetItem(namespace, str_factories, parts->factories_by_name) < 0)) {
            return -1;
        }
        int found = PyDict_Contains(namespace, str_match_args);
        if (found < 0 || (!found && PyDict_SetItem(namespace, str_match_args, parts->names) < 0)) {
            return -1;
        }
        if (parts->new != NULL && PyDict_SetItem(namespace, str_new, parts->new) < 0) {
            return -1;
        }
    }
    if (parts->doc != NULL && PyDict_SetItem(namespace, str_doc_attribute, parts->doc) < 0) {
        return -1;
    }
    PyType_Modified(cls);
    if (parts->new != NULL) {
        PyObject *function = PyObject_GetAttr(parts->new, str_func);
        if (function == NULL) {
            return -1;
        }
        int installed = install_constructor(cls, parts->names, parts->new_defaults,
                                            parts->factories, builder.factory_marker, function);
        Py_DECREF(function);
        if (installed < 0) {
            return -1;
        }
    }
    return 0;
}

/*
 * _record._build for the common class statement: one base, plain or field()
 * defaults, no ClassVar, not generic, no metaclass. It declines, having
 * changed nothing, on anything else and on every definition error but an
 * invalid field name, whose check it shares: _build words every error.
 */
static int
build_record(PyTypeObject *cls)
{
    Parts parts = {0};
    if ((parts.factories = PyDict_New()) == NULL) {
        return BUILD_FAILED;
    }
    int outcome = compute_parts(&parts, cls);
    if (outcome == BUILD_DONE) {
        int sealed = seal_type(cls);
        if (sealed <= 0) {
            outcome = sealed < 0 ? BUILD_FAILED : BUILD_DECLINED; /* _build forbids attributes */
        }
        else if (write_parts(&parts, cls) < 0) {
            outcome = BUILD_FAILED;
        }
    }
    parts_clear(&parts);
    return outcome;
}

static PyObject *
records_build(PyObject *module, PyObject *cls)
{
    if (builder.record == NULL || !PyType_Check(cls)) {
        Py_RETURN_FALSE;
    }
    int outcome = build_record((PyTypeObject *)cls);
    return outcome < 0 ? NULL : PyBool_FromLong(outcome);
}

/* Record.__init_subclass__: builds cls in C when it can, otherwise calls
 * the Python method (for keywords, or a base between cls and Record that
 * may define __init_subclass__) or _build. */
static PyObject *
record_init_subclass(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *mro = PyType_Check(cls) ? ((PyTypeObject *)cls)->tp_mro : NULL;
    if (builder.record == NULL || nargs != 0 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))
        || mro == NULL || PyTuple_GET_SIZE(mro) < 3
        || PyTuple_GET_ITEM(mro, PyTuple_GET_SIZE(mro) - 3) != builder.record) {
        if (builder.init_subclass == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "records._speedups is not configured");
            return NULL;
        }
        PyObject *small[8];
        Py_ssize_t total = nargs + 1 + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
        PyObject **stack = total <= 8 ? small : PyMem_New(PyObject *, total);
        if (stack == NULL) {
            return PyErr_NoMemory();
        }
        stack[0] = cls;
        for (Py_ssize_t i = 1; i < total; i++) {
            stack[i] = args[i - 1];
        }
        PyObject *result = PyObject_Vectorcall(builder.init_subclass, stack, nargs + 1, kwnames);
        if (stack != small) {
            PyMem_Free(stack);
        }
        return result;
    }
    int outcome = build_record((PyTypeObject *)cls);
    if (outcome < 0) {
        return NULL;
    }
    if (outcome == BUILD_DECLINED) {
        return PyObject_CallOneArg(builder.build, cls);
    }
    Py_RETURN_NONE;
}

static PyMethodDef init_subclass_def = {
    "__init_subclass__", (PyCFunction)(void (*)(void))record_init_subclass,
    METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
    "Make the new subclass a record type from its annotations.",
};

static PyObject *
records_init_subclass(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "init_subclass() needs the Record class");
        return NULL;
    }
    return PyDescr_NewClassMethod((PyTypeObject *)cls, &init_subclass_def);
}
