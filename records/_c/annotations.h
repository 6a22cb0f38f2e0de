/*
 * The field names of deferred annotations (CPython 3.14+, PEP 649/749): the
 * C twin of deferred_strings() in records/_annotations.py, for the class
 * builder.
 *
 * A class body's annotations are a compiler-generated __annotate__ function.
 * Called in the VALUE_WITH_FAKE_GLOBALS format with globals of records'
 * making, every name it looks up is a placeholder, and what it does to one
 * (an attribute, a subscript, a call, "|") gives a placeholder again, so
 * nothing is evaluated. The builder needs only the names and whether any
 * annotation may be a ClassVar; so a placeholder holds only whether the text
 * it stands for mentions "ClassVar", and there are just two of them, made
 * when the module loads: "plain" and "mentions ClassVar". Anything else (an
 * error, a value a placeholder does not spell, a mention of ClassVar) leaves
 * the class to records/_builder.py, which reads the text in full.
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

#if PY_VERSION_HEX >= 0x030E0000

typedef struct {
    PyObject_HEAD
    int mentions_classvar;
} Placeholder;

static PyTypeObject PlaceholderType;
static Placeholder plain_placeholder = {PyObject_HEAD_INIT(&PlaceholderType) 0};
static Placeholder classvar_placeholder = {PyObject_HEAD_INIT(&PlaceholderType) 1};

/* The placeholder of a text that mentions ClassVar if mentions does. */
static PyObject *
placeholder(int mentions)
{
    return Py_NewRef(mentions ? (PyObject *)&classvar_placeholder : (PyObject *)&plain_placeholder);
}

/* 1 if str text mentions ClassVar, else 0; -1 on error. */
static int
mentions_classvar(PyObject *text)
{
    Py_ssize_t found = PyUnicode_Find(text, str_classvar, 0, PyUnicode_GET_LENGTH(text), 1);
    return found == -2 ? -1 : found >= 0;
}

/* 1 if value, a part of an annotation, mentions ClassVar or may (a value
 * that placeholders do not spell); 0 if not; -1 on error. */
static int
part_mentions_classvar(PyObject *value, int depth)
{
    if (Py_IS_TYPE(value, &PlaceholderType)) {
        return ((Placeholder *)value)->mentions_classvar;
    }
    if (PyUnicode_CheckExact(value)) {
        return mentions_classvar(value);
    }
    if (value == Py_None || value == Py_Ellipsis || PyLong_CheckExact(value) || PyBool_Check(value)
        || PyFloat_CheckExact(value)) {
        return 0;
    }
    if ((PyTuple_CheckExact(value) || PyList_CheckExact(value)) && depth < 8) {
        Py_ssize_t size = PySequence_Fast_GET_SIZE(value);
        for (Py_ssize_t i = 0; i < size; i++) {
            int found = part_mentions_classvar(PySequence_Fast_GET_ITEM(value, i), depth + 1);
            if (found != 0) {
                return found;
            }
        }
        return 0;
    }
    return 1;
}

static PyObject *
placeholder_getattro(PyObject *self, PyObject *name)
{
    Py_ssize_t length = PyUnicode_Check(name) ? PyUnicode_GET_LENGTH(name) : 0;
    if (length >= 4 && PyUnicode_READ_CHAR(name, 0) == '_' && PyUnicode_READ_CHAR(name, 1) == '_'
        && PyUnicode_READ_CHAR(name, length - 1) == '_'
        && PyUnicode_READ_CHAR(name, length - 2) == '_') {
        return PyObject_GenericGetAttr(self, name); /* dunders are not parts of a text */
    }
    int found = length ? mentions_classvar(name) : 0;
    return found < 0 ? NULL : placeholder(found || ((Placeholder *)self)->mentions_classvar);
}

static PyObject *
placeholder_subscript(PyObject *self, PyObject *item)
{
    int found = part_mentions_classvar(item, 0);
    return found < 0 ? NULL : placeholder(found || ((Placeholder *)self)->mentions_classvar);
}

static PyObject *
placeholder_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    int found = part_mentions_classvar(args, 0);
    if (found == 0 && kwargs != NULL) {
        PyObject *values = PyDict_Values(kwargs);
        found = values == NULL ? -1 : part_mentions_classvar(values, 0);
        Py_XDECREF(values);
    }
    return found < 0 ? NULL : placeholder(found || ((Placeholder *)self)->mentions_classvar);
}

static PyObject *
placeholder_or(PyObject *left, PyObject *right)
{
    int found = part_mentions_classvar(left, 0);
    if (found == 0) {
        found = part_mentions_classvar(right, 0);
    }
    return found < 0 ? NULL : placeholder(found);
}

static PyNumberMethods placeholder_number = {.nb_or = placeholder_or};
static PyMappingMethods placeholder_mapping = {.mp_subscript = placeholder_subscript};

static PyTypeObject PlaceholderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.annotation_placeholder",
    .tp_basicsize = sizeof(Placeholder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A name in an annotation, read without evaluating it.",
    .tp_getattro = placeholder_getattro,
    .tp_as_mapping = &placeholder_mapping,
    .tp_as_number = &placeholder_number,
    .tp_call = placeholder_call,
};

/* The format in which a compiler-generated __annotate__ takes fake globals. */
#define VALUE_WITH_FAKE_GLOBALS 2

/* The fake globals and closure of a run of code: a placeholder for every
 * name, an empty class dict for __classdict__. -1 on error. */
static int
fake_scope(PyCodeObject *code, PyObject **globals, PyObject **closure)
{
    *globals = PyDict_New();
    PyObject *builtins = PyDict_New();
    PyObject *freevars = PyCode_GetFreevars(code);
    int failed = *globals == NULL || builtins == NULL || freevars == NULL
                 || PyDict_SetItemString(*globals, "__builtins__", builtins) < 0;
    PyObject *names = code->co_names;
    for (Py_ssize_t i = 0; !failed && i < PyTuple_GET_SIZE(names); i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        int found = mentions_classvar(name);
        PyObject *value = found < 0 ? NULL : placeholder(found);
        failed = value == NULL || PyDict_SetItem(*globals, name, value) < 0;
        Py_XDECREF(value);
    }
    Py_ssize_t count = failed ? 0 : PyTuple_GET_SIZE(freevars);
    *closure = failed ? NULL : PyTuple_New(count);
    failed = failed || *closure == NULL;
    for (Py_ssize_t i = 0; !failed && i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(freevars, i);
        int is_class_dict = PyUnicode_CompareWithASCIIString(name, "__classdict__") == 0;
        int found = is_class_dict ? 0 : mentions_classvar(name);
        PyObject *content = found < 0 ? NULL : is_class_dict ? PyDict_New() : placeholder(found);
        PyObject *cell = content == NULL ? NULL : PyCell_New(content);
        Py_XDECREF(content);
        failed = cell == NULL;
        if (cell != NULL) {
            PyTuple_SET_ITEM(*closure, i, cell);
        }
    }
    Py_XDECREF(builtins);
    Py_XDECREF(freevars);
    if (failed) {
        Py_CLEAR(*globals);
        Py_CLEAR(*closure);
        return -1;
    }
    return 0;
}

/* The field names that compiler-generated annotate writes, in order, as a
 * dict of name -> None, where no annotation mentions ClassVar; NULL without
 * an error where records/_builder.py is to read them (or NULL with one). */
static PyObject *
deferred_field_names(PyObject *annotate)
{
    if (!PyFunction_Check(annotate)) {
        return NULL;
    }
    PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(annotate);
    PyObject *globals = NULL, *closure = NULL, *fake = NULL, *result = NULL, *names = NULL;
    if (fake_scope(code, &globals, &closure) < 0) {
        return NULL;
    }
    fake = PyFunction_New((PyObject *)code, globals);
    if (fake == NULL || PyFunction_SetClosure(fake, closure) < 0) {
        goto done;
    }
    PyObject *format = PyLong_FromLong(VALUE_WITH_FAKE_GLOBALS);
    result = format == NULL ? NULL : PyObject_CallOneArg(fake, format);
    Py_XDECREF(format);
    if (result == NULL || !PyDict_CheckExact(result)) {
        PyErr_Clear(); /* what this cannot read, _annotations can */
        goto done;
    }
    names = PyDict_New();
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (names != NULL && PyDict_Next(result, &position, &key, &value)) {
        int found = PyUnicode_CheckExact(key) ? part_mentions_classvar(value, 0) : 1;
        if (found != 0 || PyDict_SetItem(names, key, Py_None) < 0) {
            Py_CLEAR(names); /* with the error, if there is one */
        }
    }

done:
    Py_XDECREF(globals);
    Py_XDECREF(closure);
    Py_XDECREF(fake);
    Py_XDECREF(result);
    return names;
}

static int
annotations_ready(void)
{
    return PyType_Ready(&PlaceholderType);
}

#else

static int
annotations_ready(void)
{
    return 0;
}

#endif
