/** The header row of an admin table; an "Actions" column is named for screen readers only. */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead className="border-b border-line text-fg-muted">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="py-2 pr-4 font-medium">
            {column === "Actions" ? <span className="sr-only">Actions</span> : column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
