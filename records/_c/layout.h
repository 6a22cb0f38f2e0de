/*
 * seal() and write(): the instance-dict removal of records/_layout.py, on
 * the C struct, and the attributes written into the class dict.
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
    if (!is_changeable_record_class(cls, "seal")) {
        return NULL;
    }
    int sealed = seal_type((PyTypeObject *)cls);
    return sealed < 0 ? NULL : PyBool_FromLong(sealed);
}

static PyObject *
records_write(PyObject *module, PyObject *args)
{
    PyObject *cls, *attributes;
    if (!PyArg_ParseTuple(args, "O!O!:write", &PyType_Type, &cls, &PyDict_Type, &attributes)
        || !is_changeable_record_class(cls, "write")) {
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
