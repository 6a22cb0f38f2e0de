/*
 * seal() and write(): the instance-dict removal of records/_layout.py, on
 * the C struct, and the attributes written into the class dict; prepare(),
 * C only, which gives the sealed class the allocation of records
 * (members.h); and the build mark, which tells them what they may change.
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

/* 1 if the new class cls now has instances without __dict__ (already or by
 * this edit), 0 if its layout is not the one CPython gives a plain subclass
 * of a dict-less base (then nothing was changed), -1 with an error. The
 * caller knows that no instance of cls exists yet (see records/_layout.py). */
static int
seal_type(PyTypeObject *cls)
{
    PyTypeObject *base = cls->tp_base;
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || base == NULL || cls->tp_dict == NULL) {
        return 0;
    }
#if PY_VERSION_HEX >= 0x030C0000
    if (cls->tp_dictoffset == 0 && !(cls->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
        return 1;
    }
    if (base->tp_dictoffset != 0 || (base->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
        return 0;
    }
    /* A managed dict lives before the object: it adds no basic size. */
    if (!(cls->tp_flags & Py_TPFLAGS_MANAGED_DICT) || cls->tp_dictoffset != -1
        || cls->tp_basicsize != base->tp_basicsize) {
        return 0;
    }
#if PY_VERSION_HEX >= 0x030D0000
    if (cls->tp_flags & Py_TPFLAGS_INLINE_VALUES) {
        return 0;
    }
#endif
#else
    if (cls->tp_dictoffset == 0) {
        return 1;
    }
    if (base->tp_dictoffset != 0) {
        return 0;
    }
    if (cls->tp_basicsize != base->tp_basicsize + (Py_ssize_t)sizeof(PyObject *)
        || cls->tp_dictoffset != -(Py_ssize_t)sizeof(PyObject *)) {
        return 0;
    }
#endif
    if (cls->tp_itemsize != base->tp_itemsize
        || cls->tp_weaklistoffset != base->tp_weaklistoffset) {
        return 0;
    }
    /* Only the identity of the descriptor is read: a borrowed reference. */
    PyObject *descriptor = PyDict_GetItemWithError(cls->tp_dict, str_dict);
    if (descriptor == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    /* Up to 3.14 each class gets a __dict__ descriptor of its own; from 3.15
     * on, classes share one, made for object. */
    if (!Py_IS_TYPE(descriptor, &PyGetSetDescr_Type)
#if PY_VERSION_HEX >= 0x030F0000
        || (PyDescr_TYPE(descriptor) != cls && PyDescr_TYPE(descriptor) != &PyBaseObject_Type)
#else
        || PyDescr_TYPE(descriptor) != cls
#endif
    ) {
        return 0;
    }
    if (PyDict_DelItem(cls->tp_dict, str_dict) < 0) {
        return -1;
    }
#if PY_VERSION_HEX >= 0x030C0000
    cls->tp_flags &= ~Py_TPFLAGS_MANAGED_DICT;
#else
    cls->tp_basicsize -= (Py_ssize_t)sizeof(PyObject *);
#endif
    cls->tp_dictoffset = 0;
    cls->tp_getset = NULL;
    PyType_Modified(cls);
    return 1;
}

/*
 * The build mark: what Record's __init_subclass__ is doing to a class, kept
 * in the class's tp_cache (unused by CPython 3.10-3.15 and released with the
 * class; a record class is never a records.namedtuple class, whose tp_cache
 * holds its data):
 *
 *   NULL           it has never run on the class;
 *   mark_deciding  its first call is under way and has not decided the
 *                  layout yet: seal() and prepare() may change it;
 *   mark_building  one of its calls is under way, the layout decided:
 *                  write() may set attributes;
 *   None           it has run, and no call of it is under way.
 *
 * No other code can tell that a class has no instance, which a change of
 * its layout needs (a class sealed under an instance with a __dict__ frees
 * it with the wrong layout): the layout's entry points change only a class
 * records is building, and the builders decide whether it may have
 * instances (may_seal). The C builder marks the class itself, and no Python
 * code runs between its first mark and its decision, so no other code sees
 * mark_deciding; records/_builder.py marks it through begin_build(),
 * layout_decided() and end_build() (records/_layout.py has their Python
 * twins, for the ctypes seal).
 */
static PyObject *mark_deciding; /* made once by the main interpreter */
static PyObject *mark_building;

/* What begin_build() found: the first call (the layout is to be decided), a
 * later one, or a call inside one under way (which leaves the mark alone). */
enum { CALL_FIRST = 0, CALL_AGAIN = 1, CALL_NESTED = 2 };

static void
set_mark(PyTypeObject *cls, PyObject *mark)
{
    PyObject *was = cls->tp_cache;
    cls->tp_cache = Py_NewRef(mark);
    Py_XDECREF(was); /* None or a mark: no code runs */
}

/* Mark cls as being built by a call of Record's __init_subclass__ that
 * begins; return which call it is, for end_build(). No Python code runs. */
static int
begin_build(PyTypeObject *cls)
{
    if (cls->tp_cache == NULL) {
        set_mark(cls, mark_deciding);
        return CALL_FIRST;
    }
    if (cls->tp_cache == Py_None) {
        set_mark(cls, mark_building);
        return CALL_AGAIN;
    }
    return CALL_NESTED;
}

/* The layout of cls is decided: seal() and prepare() may no longer change it. */
static void
layout_decided(PyTypeObject *cls)
{
    if (cls->tp_cache == mark_deciding) {
        set_mark(cls, mark_building);
    }
}

/* The call of Record's __init_subclass__ that begin_build() returned call
 * for ends (or fails). */
static void
end_build(PyTypeObject *cls, int call)
{
    if (call != CALL_NESTED
        && (cls->tp_cache == mark_deciding || cls->tp_cache == mark_building)) {
        set_mark(cls, Py_None);
    }
}

/* 1 if cls is a class records is building (with its layout still to decide,
 * if deciding); else 0 with a TypeError naming the function and the class. */
static int
is_being_built(PyTypeObject *cls, int deciding, const char *function)
{
    PyObject *mark = cls->tp_cache;
    if (mark == mark_deciding || (!deciding && mark == mark_building)) {
        return 1;
    }
    PyErr_Format(PyExc_TypeError, "%s() needs a record class being built%s not %R", function,
                 deciding ? ", before its layout is decided," : ",", (PyObject *)cls);
    return 0;
}

/* 1 if cls is a class records may change: a tuple subclass made by a class
 * statement (a heap type, not immutable), not tuple itself; else 0 with a
 * TypeError naming the function. */
static int
is_changeable_record_class(PyObject *cls, const char *function)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)
        || !PyType_HasFeature((PyTypeObject *)cls, Py_TPFLAGS_HEAPTYPE)
        || PyType_HasFeature((PyTypeObject *)cls, Py_TPFLAGS_IMMUTABLETYPE)
        || ((PyTypeObject *)cls)->tp_dict == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "%s() needs a tuple subclass made by a class statement, not %R", function,
                     cls);
        return 0;
    }
    return 1;
}

static PyObject *
records_seal(PyObject *module, PyObject *cls)
{
    if (!is_changeable_record_class(cls, "seal")
        || !is_being_built((PyTypeObject *)cls, 1, "seal")) {
        return NULL;
    }
    int sealed = seal_type((PyTypeObject *)cls);
    return sealed < 0 ? NULL : PyBool_FromLong(sealed);
}

/* prepare(cls, Record): prepare_allocation, for _sealing, which seals cls
 * first: its size grows, as seal() changes it, while the layout is decided. */
static PyObject *
records_prepare(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyType_Check(args[0]) || !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "prepare() takes a class and Record");
        return NULL;
    }
    if (!is_being_built((PyTypeObject *)args[0], 1, "prepare")
        || prepare_allocation((PyTypeObject *)args[0], (PyTypeObject *)args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
records_write(PyObject *module, PyObject *args)
{
    PyObject *cls, *attributes;
    if (!PyArg_ParseTuple(args, "O!O!:write", &PyType_Type, &cls, &PyDict_Type, &attributes)
        || !is_changeable_record_class(cls, "write")
        || !is_being_built((PyTypeObject *)cls, 0, "write")) {
        return NULL;
    }
    /* Straight into the class dict, as _layout.write does: no name here is
     * backed by a type slot that a dict write would leave stale. Member
     * descriptors get their room in the layout first. */
    if (lay_out_members_in((PyTypeObject *)cls, attributes) < 0) {
        return NULL;
    }
    PyObject *namespace = ((PyTypeObject *)cls)->tp_dict;
    Graveyard graveyard;
    graveyard_init(&graveyard);
    Py_ssize_t position = 0;
    PyObject *key, *value;
    int failed = 0;
    /* attributes is held by the caller; its keys are exact str (names of
     * fields and of records' own attributes). */
    while (!failed && PyDict_Next(attributes, &position, &key, &value)) {
        failed = !PyUnicode_CheckExact(key) || write_member(&graveyard, namespace, key, value) < 0;
        if (failed && !PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "write() takes attributes named by str");
        }
    }
    PyType_Modified((PyTypeObject *)cls);
    graveyard_release(&graveyard);
    if (failed) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* begin_build(cls) -> int: begin_build(), for records/_builder.py. */
static PyObject *
records_begin_build(PyObject *module, PyObject *cls)
{
    if (!is_changeable_record_class(cls, "begin_build")) {
        return NULL;
    }
    return PyLong_FromLong(begin_build((PyTypeObject *)cls));
}

/* layout_decided(cls): layout_decided(), for records/_sealing.py. */
static PyObject *
records_layout_decided(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_Format(PyExc_TypeError, "layout_decided() needs a class, not %R", cls);
        return NULL;
    }
    layout_decided((PyTypeObject *)cls);
    Py_RETURN_NONE;
}

/* end_build(cls, call): end_build(), for records/_builder.py. */
static PyObject *
records_end_build(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long call = nargs == 2 && PyLong_Check(args[1]) ? PyLong_AsLong(args[1]) : -1;
    if (nargs != 2 || !PyType_Check(args[0]) || call < CALL_FIRST || call > CALL_NESTED) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError,
                            "end_build() takes a class and what begin_build() returned");
        }
        return NULL;
    }
    end_build((PyTypeObject *)args[0], (int)call);
    Py_RETURN_NONE;
}
