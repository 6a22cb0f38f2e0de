/*
 * C only: field accessors as member descriptors, and what makes them safe.
 *
 * A member descriptor of type Py_T_OBJECT_EX at the offset of item i reads
 * that item directly, and the interpreter specialises the read
 * (LOAD_ATTR_SLOT): record.x as fast as a __slots__ attribute. It checks no
 * bounds, so every instance of every class that can reach it must have room
 * for item i. The room is written in the layout itself: a record class with
 * member descriptors for n fields has the basic size of a tuple plus n
 * items (lay_out_members), so
 *
 *   - every allocator gives each instance room for n items beyond the ones
 *     it holds: tuple.__new__, copyreg, pickles, a subclass's (a subclass
 *     inherits the size, also one that Record's __init_subclass__ never saw);
 *     items not given stay NULL, and reading one raises AttributeError;
 *   - CPython refuses __class__ and __bases__ changes between classes of
 *     different sizes ("object layout differs"), and a class with two record
 *     bases of different sizes;
 *   - record_alloc, the allocator of the classes records builds, takes the
 *     n items back from the size it asks, so a record of n items takes the
 *     memory of a tuple of n items; __sizeof__ says so.
 *
 * The room may grow only while no instance of the class can exist, which
 * the class's tp_free tells (CPython refuses __class__ changes between
 * classes whose tp_free differ, so no instance can be moved into a class in
 * either of the first two states):
 *
 *   building  (record_free_building) from prepare_allocation, which only a
 *             class no other code had before Record's __init_subclass__ gets
 *             (the reference count of may_seal_here), to finish_allocation;
 *             record_alloc refuses instances;
 *   unused    (record_free_unused) from then until record_alloc makes the
 *             first instance, for a class whose dict held nothing but its
 *             module when it was prepared (is_empty_class): cloudpickle
 *             rebuilds a class by value as such an empty class and then
 *             sets its attributes, and its member descriptors are made
 *             here;
 *   used      (PyObject_GC_Del) for good.
 *
 * A subclass copies its base's size when it is made, so the room of a class
 * with a subclass never grows, nor that of a class whose record base is
 * being built.
 *
 * The room grows one item at a time: a class that may grow keeps room for
 * one item beyond what its member descriptors read, the next field, and
 * member() makes a descriptor only for an item the layout has room for. So
 * the builders' fields, made in turn, each fit, and no index a caller or a
 * pickle names, however far, makes the instances of a class larger than
 * its fields.
 *
 * The PyMemberDef and its strings live in the descriptor's own memory, which
 * holds its class: they live exactly as long as it does.
 *
 * A member descriptor pickles as getattr(its class, its name), which a class
 * rebuilt from its dict by cloudpickle, joblib or dill cannot answer while
 * it is being rebuilt: records/_pickling.py pickles the record's ones as
 * "field index of this class" instead (record_field, records_field).
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

/* Only where the interpreter specialises attribute reads (3.11+) is a
 * member descriptor faster than _tuplegetter; on 3.10 it is slower, and the
 * builders make _tuplegetters there. */
#define MEMBERS_ARE_FASTER (PY_VERSION_HEX >= 0x030B0000)

#if PY_VERSION_HEX < 0x030C0000
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

#if PY_VERSION_HEX < 0x030C0000
/* A twin of member_descriptor whose items are bytes: an allocation of its
 * size plus room for a PyMemberDef and its strings (3.12+ has
 * PyUnstable_Object_GC_NewWithExtraData for this). Never readied nor
 * exposed: only its size (set when the module loads) and flags are read, by
 * _PyObject_GC_NewVar. */
static PyTypeObject MemberTwinType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.member_descriptor_allocation",
    .tp_itemsize = 1,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
};
#endif

/* The tp_free of a record class while it is being built: PyObject_GC_Del
 * under a name no other class has, so that CPython refuses __class__
 * changes to it. The second is for a class whose dict held nothing but its
 * module when it was prepared (is_empty_class). */
static void
record_free_building(void *object)
{
    PyObject_GC_Del(object);
}

static void
record_free_building_empty(void *object)
{
    PyObject_GC_Del(object);
}

static inline int
is_building(PyTypeObject *cls)
{
    return cls->tp_free == record_free_building || cls->tp_free == record_free_building_empty;
}

/* The tp_free of a built record class of which no instance was made yet:
 * PyObject_GC_Del under a third name (record_alloc replaces it with
 * PyObject_GC_Del at the first instance). */
static void
record_free_unused(void *object)
{
    PyObject_GC_Del(object);
}

static inline int
is_unused(PyTypeObject *cls)
{
    return cls->tp_free == record_free_unused;
}

/* 1 if the dict of cls holds nothing but __module__, a __doc__ of None and
 * typing's __orig_bases__: the class that cloudpickle makes to fill in
 * later, which a class statement never is from 3.13 on (its dict has
 * __firstlineno__); up to 3.12 "class C(Base): pass" is one too. No Python
 * code runs here. */
static int
is_empty_class(PyTypeObject *cls)
{
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (PyDict_Next(cls->tp_dict, &position, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) {
            return 0;
        }
        int allowed = PyUnicode_Compare(key, str_module) == 0
                      || PyUnicode_Compare(key, str_orig_bases) == 0
                      || (value == Py_None && PyUnicode_Compare(key, str_doc_attribute) == 0);
        if (!allowed) {
            return 0;
        }
    }
    return 1;
}

/* The items of room the layout of cls gives beyond the ones an instance
 * holds (its basic size above a tuple's). */
static inline Py_ssize_t
room_in_layout(PyTypeObject *cls)
{
    /* A __dict__ or weakref pointer also lies past the tuple (3.10, 3.11): no room. */
    if (cls->tp_dictoffset != 0 || cls->tp_weaklistoffset != 0) {
        return 0;
    }
    Py_ssize_t extra = cls->tp_basicsize - PyTuple_Type.tp_basicsize;
    return extra > 0 ? extra / (Py_ssize_t)sizeof(PyObject *) : 0;
}

/* The most items of room a record class may have: far below any size whose
 * offsets could overflow, far above any record anyone declares. */
#define MAX_ROOM ((Py_ssize_t)1 << 20)

/* The reach of the member descriptors of cls in its own dict (the items
 * they read past). No Python code runs here. */
static Py_ssize_t
own_reach(PyTypeObject *cls)
{
    Py_ssize_t position = 0, reach = 0;
    PyObject *key, *value;
    while (cls->tp_dict != NULL && PyDict_Next(cls->tp_dict, &position, &key, &value)) {
        if (Py_IS_TYPE(value, &PyMemberDescr_Type)
            && ((PyMemberDescrObject *)value)->d_common.d_type == cls) {
            Py_ssize_t offset = ((PyMemberDescrObject *)value)->d_member->offset
                                - (Py_ssize_t)offsetof(PyTupleObject, ob_item);
            Py_ssize_t found = offset / (Py_ssize_t)sizeof(PyObject *) + 1;
            reach = found > reach ? found : reach;
        }
    }
    return reach;
}

/* The room of cls is fixed from now on (it is used): it gives back the one
 * item it kept beyond what its member descriptors and its base need (see
 * lay_out_members), but never below either. */
static void
settle_room(PyTypeObject *cls)
{
    Py_ssize_t floor = cls->tp_base != NULL ? cls->tp_base->tp_basicsize : 0;
    Py_ssize_t needed = PyTuple_Type.tp_basicsize + own_reach(cls) * (Py_ssize_t)sizeof(PyObject *);
    Py_ssize_t settled = cls->tp_basicsize - (Py_ssize_t)sizeof(PyObject *);
    settled = settled > floor ? settled : floor;
    settled = settled > needed ? settled : needed;
    if (settled < cls->tp_basicsize) {
        cls->tp_basicsize = settled;
    }
}

/* A new instance of the record class cls of nitems items, in the room its
 * layout gives and as many more items as it needs. */
static inline PyObject *
allocate_in_room(PyTypeObject *cls, Py_ssize_t nitems)
{
    Py_ssize_t room = room_in_layout(cls);
    PyObject *record = PyType_GenericAlloc(cls, nitems > room ? nitems - room : 0);
    if (record == NULL) {
        return NULL;
    }
    Py_SET_SIZE(record, nitems);
    reset_hash_cache(record);
    return record;
}

/* The tp_alloc of prepared record classes, which have no __dict__: room for
 * max(nitems, room) items, as a tuple of that many items takes. */
static PyObject *
record_alloc(PyTypeObject *cls, Py_ssize_t nitems)
{
    if (cls->tp_free == PyObject_GC_Del) { /* used: the common case */
        return allocate_in_room(cls, nitems);
    }
    if (is_building(cls)) {
        raise_rule(PyExc_TypeError, "not_finished_message", "(O)",
                   ((PyHeapTypeObject *)cls)->ht_name);
        return NULL;
    }
    if (is_unused(cls)) {
        cls->tp_free = PyObject_GC_Del; /* its room is fixed from now on */
        settle_room(cls);
    }
    return allocate_in_room(cls, nitems);
}

/* The tp_dealloc of the classes records lays out (given with record_alloc)
 * and of records.namedtuple's classes:
 * what CPython's default for a class (subtype_dealloc) and tuple's own do
 * for an instance with neither a __dict__ nor weak references nor slots,
 * without the steps that have nothing to do there. A __del__, assigned
 * later too, runs first as it would there. Also called as the base's
 * dealloc of a subclass that CPython's default deallocates, which has run
 * the finalizer; then as there, it releases the class too (a heap type). */
static void
record_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (type->tp_finalize != NULL && type->tp_dealloc == record_dealloc) {
        PyObject_GC_Track(self);
        if (PyObject_CallFinalizerFromDealloc(self) < 0) {
            return; /* resurrected */
        }
        PyObject_GC_UnTrack(self);
        type = Py_TYPE(self);
    }
    Py_TRASHCAN_BEGIN(self, record_dealloc)
    Py_ssize_t i = Py_SIZE(self);
    while (--i >= 0) {
        Py_XDECREF(((PyTupleObject *)self)->ob_item[i]);
    }
    type->tp_free(self);
    Py_DECREF(type);
    Py_TRASHCAN_END
}

/* 1 if cls is a new record class (a heap subclass of record, a tuple
 * subclass of pointer items) that record_alloc may serve. */
static int
is_new_record_class(PyTypeObject *cls, PyTypeObject *record)
{
    return cls != record && (cls->tp_flags & Py_TPFLAGS_HEAPTYPE)
           && PyType_IsSubtype(cls, record) && PyType_IsSubtype(cls, &PyTuple_Type)
           && cls->tp_itemsize == (Py_ssize_t)sizeof(PyObject *) && cls->tp_dictoffset == 0
#if PY_VERSION_HEX >= 0x030C0000
           && !(cls->tp_flags & Py_TPFLAGS_MANAGED_DICT)
#endif
        ;
}

/* Give the new, sealed subclass cls of record the allocation of records,
 * refusing instances until finish_allocation(). The caller knows that no
 * instance of cls exists (may_seal_here). Once only: __init_subclass__
 * called again on a finished class must not make it refuse instances. */
static int
prepare_allocation(PyTypeObject *cls, PyTypeObject *record)
{
    if (!is_new_record_class(cls, record)) {
        PyErr_SetString(PyExc_TypeError, "prepare() needs a new, sealed record class");
        return -1;
    }
    if (cls->tp_alloc != record_alloc) {
        cls->tp_alloc = record_alloc;
        if (cls->tp_weaklistoffset == 0 && Py_SIZE(cls) == 0) { /* no weak references, no slots */
            cls->tp_dealloc = record_dealloc;
        }
        cls->tp_free = is_empty_class(cls) ? record_free_building_empty : record_free_building;
        /* One item more than its base: the class is its own "solid base",
         * so CPython lets no class list it in its MRO (a metaclass's mro())
         * but its subclasses, which lay_out_members sees. */
        cls->tp_basicsize += (Py_ssize_t)sizeof(PyObject *);
    }
    return 0;
}

/* Instances of the record class cls may be made from now on. A class whose
 * dict held nothing but its module when it was prepared may still get room
 * until the first is: a by-value pickle may fill it in next (see above). */
static void
finish_allocation(PyTypeObject *cls)
{
    if (!is_building(cls)) {
        return;
    }
    if (cls->tp_free == record_free_building_empty) {
        cls->tp_free = record_free_unused;
    }
    else {
        cls->tp_free = PyObject_GC_Del;
        settle_room(cls);
    }
}

/* reach widened to the items a member descriptor of cls in accessor reads
 * past (its index + 1); -1 for a member descriptor of another class, or
 * once reach is -1. Other accessors leave reach as it is. */
static Py_ssize_t
widen_reach(PyTypeObject *cls, Py_ssize_t reach, PyObject *accessor)
{
    if (reach < 0 || !Py_IS_TYPE(accessor, &PyMemberDescr_Type)) {
        return reach;
    }
    PyMemberDescrObject *descriptor = (PyMemberDescrObject *)accessor;
    if (descriptor->d_common.d_type != cls) {
        return -1;
    }
    Py_ssize_t offset = descriptor->d_member->offset - (Py_ssize_t)offsetof(PyTupleObject, ob_item);
    Py_ssize_t found = offset / (Py_ssize_t)sizeof(PyObject *) + 1;
    return found > reach ? found : reach;
}

/* Before a member descriptor of cls reaching reach items is made: give the
 * layout of cls room for it, unless it has it. Only a class being built or
 * unused may grow (see above), with no record base being built and no
 * subclass (either would have copied its size before this); such a class
 * keeps one item of room beyond every descriptor made so far (settle_room
 * gives it back), so that each new one grows it, and so is checked. No
 * Python code runs here. */
static int
lay_out_members(PyTypeObject *cls, Py_ssize_t reach)
{
    if (reach == 0) {
        return 0;
    }
    if (!PyType_IsSubtype(cls, &PyTuple_Type) || cls->tp_itemsize != (Py_ssize_t)sizeof(PyObject *)) {
        PyErr_SetString(PyExc_TypeError, "member descriptors need a tuple subclass");
        return -1;
    }
    if (reach < 0 || reach > MAX_ROOM) {
        PyErr_SetString(PyExc_ValueError, "a record field's index is out of range");
        return -1;
    }
    int growing = is_building(cls) || is_unused(cls);
    Py_ssize_t wanted = growing ? reach + 1 : reach;
    if (wanted <= room_in_layout(cls)) {
        return 0;
    }
    if (!growing) {
        PyErr_SetString(PyExc_TypeError,
                        "member descriptors need a record class with no instance yet");
        return -1;
    }
    PyObject *mro = cls->tp_mro;
    for (Py_ssize_t i = 1; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (is_building(base)) {
            raise_rule(PyExc_TypeError, "not_finished_message", "(O)",
                       ((PyHeapTypeObject *)base)->ht_name);
            return -1;
        }
    }
    PyObject *subclasses = (PyObject *)cls->tp_subclasses; /* a dict, for heap types */
    if (subclasses != NULL && PyDict_Check(subclasses) && PyDict_GET_SIZE(subclasses) != 0) {
        raise_rule(PyExc_TypeError, "subclassed_while_built_message", "(O)",
                   ((PyHeapTypeObject *)cls)->ht_name);
        return -1;
    }
    cls->tp_basicsize = PyTuple_Type.tp_basicsize + wanted * (Py_ssize_t)sizeof(PyObject *);
    return 0;
}

/* The values a class's dict held before a write replaced or deleted them,
 * kept alive until the write is over (graveyard_release): freeing one may
 * run Python code (a __del__), which must not see a half-written class, nor
 * find a value the type's lookup caches still point to. */
#define GRAVEYARD_SMALL 16

typedef struct {
    PyObject *small[GRAVEYARD_SMALL];
    PyObject **items;
    Py_ssize_t count, capacity;
} Graveyard;

static void
graveyard_init(Graveyard *graveyard)
{
    graveyard->items = graveyard->small;
    graveyard->count = 0;
    graveyard->capacity = GRAVEYARD_SMALL;
}

/* Keep a new reference to value (if any); -1 on error. */
static int
graveyard_keep(Graveyard *graveyard, PyObject *value)
{
    if (value == NULL) {
        return 0;
    }
    if (graveyard->count == graveyard->capacity) {
        Py_ssize_t capacity = graveyard->capacity * 2;
        PyObject **items = graveyard->items == graveyard->small
                               ? PyMem_New(PyObject *, capacity)
                               : PyMem_Resize(graveyard->items, PyObject *, capacity);
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        if (graveyard->items == graveyard->small) {
            memcpy(items, graveyard->small, sizeof(graveyard->small));
        }
        graveyard->items = items;
        graveyard->capacity = capacity;
    }
    graveyard->items[graveyard->count++] = Py_NewRef(value);
    return 0;
}

/* Release what the graveyard kept: call after PyType_Modified. */
static void
graveyard_release(Graveyard *graveyard)
{
    for (Py_ssize_t i = 0; i < graveyard->count; i++) {
        Py_DECREF(graveyard->items[i]);
    }
    if (graveyard->items != graveyard->small) {
        PyMem_Free(graveyard->items);
    }
    graveyard_init(graveyard);
}

/* namespace[name] = value, keeping what it replaces in graveyard. A member
 * descriptor goes after what the dict holds already (the default it
 * replaces is taken out first): dill pickles a class by value in the order
 * of its dict, and the __new__ written before the accessors is what tells
 * records that dill is at work (constructor_reduce), before dill pickles an
 * accessor. No Python code runs here: names are exact str. */
static int
write_member(Graveyard *graveyard, PyObject *namespace, PyObject *name, PyObject *value)
{
    PyObject *old = PyDict_GetItemWithError(namespace, name); /* kept before it goes */
    if (old == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (graveyard_keep(graveyard, old) < 0) {
        return -1;
    }
    if (old != NULL && Py_IS_TYPE(value, &PyMemberDescr_Type)
        && PyDict_DelItem(namespace, name) < 0) {
        return -1;
    }
    return PyDict_SetItem(namespace, name, value);
}

/* lay_out_members for the accessors among the values of dict attributes. */
static int
lay_out_members_in(PyTypeObject *cls, PyObject *attributes)
{
    Py_ssize_t position = 0, reach = 0;
    PyObject *key, *value;
    while (PyDict_Next(attributes, &position, &key, &value)) {
        reach = widen_reach(cls, reach, value);
    }
    return lay_out_members(cls, reach);
}

static PyObject *
make_member(PyTypeObject *cls, PyObject *name, Py_ssize_t index, PyObject *doc)
{
    Py_ssize_t name_size, doc_size;
    const char *name_text = PyUnicode_AsUTF8AndSize(name, &name_size);
    const char *doc_text = PyUnicode_Check(doc) ? PyUnicode_AsUTF8AndSize(doc, &doc_size) : NULL;
    if (name_text == NULL || doc_text == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "an accessor's doc must be a str");
        }
        return NULL;
    }
    Py_ssize_t extra = (Py_ssize_t)sizeof(PyMemberDef) + name_size + 1 + doc_size + 1;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *object = PyUnstable_Object_GC_NewWithExtraData(&PyMemberDescr_Type, (size_t)extra);
#else
    /* The same allocation, made through a twin of member_descriptor whose
     * items are bytes: then it is one. */
    PyObject *object = (PyObject *)_PyObject_GC_NewVar(&MemberTwinType, extra);
    if (object != NULL) {
        Py_SET_TYPE(object, &PyMemberDescr_Type);
    }
#endif
    if (object == NULL) {
        return NULL;
    }
    PyMemberDescrObject *descriptor = (PyMemberDescrObject *)object;
    PyMemberDef *member = (PyMemberDef *)((char *)object + PyMemberDescr_Type.tp_basicsize);
    char *strings = (char *)(member + 1);
    memcpy(strings, name_text, (size_t)name_size + 1);
    memcpy(strings + name_size + 1, doc_text, (size_t)doc_size + 1);
    member->name = strings;
    member->type = Py_T_OBJECT_EX;
    member->offset = (Py_ssize_t)offsetof(PyTupleObject, ob_item)
                     + index * (Py_ssize_t)sizeof(PyObject *);
    member->flags = Py_READONLY;
    member->doc = strings + name_size + 1;
    descriptor->d_common.d_type = (PyTypeObject *)Py_NewRef(cls);
    descriptor->d_common.d_name = Py_NewRef(name);
    descriptor->d_common.d_qualname = NULL;
    descriptor->d_member = member;
    PyObject_GC_Track(object);
    return object;
}

/* __sizeof__ of a record: what a tuple of as many items takes, where
 * record_alloc made it; else what object.__sizeof__ says. */
static PyObject *
record_sizeof(PyObject *self, PyObject *unused)
{
    PyTypeObject *type = Py_TYPE(self);
    Py_ssize_t items = Py_SIZE(self), basic = type->tp_basicsize;
    if (type->tp_alloc == record_alloc) {
        Py_ssize_t room = room_in_layout(type);
        items = items > room ? items : room;
        basic = PyTuple_Type.tp_basicsize;
    }
    return PyLong_FromSsize_t(basic + items * (Py_ssize_t)sizeof(PyObject *));
}

/* building(cls): whether cls is a prepared record class being built. */
static PyObject *
records_building(PyObject *module, PyObject *cls)
{
    return PyBool_FromLong(PyType_Check(cls) && is_building((PyTypeObject *)cls));
}

/* member(cls, name, index, doc): make_member, for records/_builder.py and
 * records/_pickling.py, which makes what a pickle asks. Only for an item the
 * layout of cls has room for: the fields its member descriptors read, and
 * the next one while it may grow (lay_out_members keeps room for it), so
 * that the builders' fields, made in turn, each fit and grow the room by
 * one, and no index, however far, grows it by more. */
static PyObject *
records_member(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyType_Check(args[0]) || !PyUnicode_CheckExact(args[1])
        || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "member() takes a class, a name, an index and a doc");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    if (!PyType_IsSubtype(cls, &PyTuple_Type) || cls->tp_itemsize != (Py_ssize_t)sizeof(PyObject *)) {
        PyErr_SetString(PyExc_TypeError, "member descriptors need a tuple subclass");
        return NULL;
    }
    Py_ssize_t index = PyLong_AsSsize_t(args[2]);
    if (index == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return NULL;
        }
        PyErr_Clear(); /* beyond any room */
    }
    if (index < 0 || index >= room_in_layout(cls)) {
        PyErr_Format(PyExc_ValueError,
                     "member(): index %R of field %R is beyond the fields %R has room for",
                     args[2], args[1], (PyObject *)cls);
        return NULL;
    }
    /* Its room first: the descriptor is safe wherever it is put. */
    if (lay_out_members(cls, index + 1) < 0) {
        return NULL;
    }
    return make_member(cls, args[1], index, args[3]);
}

/* The index of the item that member descriptor accessor reads, if it is the
 * accessor of a record field: a read-only object member of a tuple subclass,
 * at the offset of an item the layout of its class has room for. Else -1. */
static Py_ssize_t
record_field(PyObject *accessor)
{
    if (!Py_IS_TYPE(accessor, &PyMemberDescr_Type)) {
        return -1;
    }
    PyMemberDescrObject *descriptor = (PyMemberDescrObject *)accessor;
    PyTypeObject *cls = descriptor->d_common.d_type;
    PyMemberDef *member = descriptor->d_member;
    Py_ssize_t offset = member->offset - (Py_ssize_t)offsetof(PyTupleObject, ob_item);
    if (cls == NULL || !PyType_IsSubtype(cls, &PyTuple_Type)
        || cls->tp_itemsize != (Py_ssize_t)sizeof(PyObject *) || member->type != Py_T_OBJECT_EX
        || !(member->flags & Py_READONLY) || offset < 0
        || offset % (Py_ssize_t)sizeof(PyObject *) != 0) {
        return -1;
    }
    Py_ssize_t index = offset / (Py_ssize_t)sizeof(PyObject *);
    return index < room_in_layout(cls) ? index : -1;
}

/* field(accessor): (its class, its index) for the accessor of a record
 * field (record_field), else None: for records/_pickling.py. */
static PyObject *
records_field(PyObject *module, PyObject *accessor)
{
    Py_ssize_t index = record_field(accessor);
    if (index < 0) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(On)", (PyObject *)PyDescr_TYPE(accessor), index);
}
