package dev.kumiko.catalog;

/** A live table: its current descriptor and statistics. The descriptor is swapped on update. */
public final class Table {
    private volatile TableDescriptor descriptor;
    private final TableStats stats = new TableStats();

    public Table(TableDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    public TableDescriptor descriptor() {
        return descriptor;
    }

    void setDescriptor(TableDescriptor d) {
        assert d.id() == descriptor.id();
        descriptor = d;
    }

    public TableStats stats() {
        return stats;
    }
}
