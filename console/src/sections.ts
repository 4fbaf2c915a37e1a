export interface Section {
  page: string;
  title: string;
  /** The section is shown to whoever may call it. */
  operation: string;
  /**
   * Who may call it may open one item's page (`#/<page>/<id>`) without the list: an auditor follows
   * an audit event to the versions of the dashboard it changed.
   */
  itemOperation?: string;
}

/** The console's sections, each shown to whoever may call the operation that lists its content. */
export const SECTIONS: readonly Section[] = [
  { page: 'audit', title: 'Audit log', operation: 'AuditController_list' },
  { page: 'history', title: 'Pipe spec history', operation: 'PipeSpecHistoryController_list' },
  { page: 'vault', title: 'Vault', operation: 'CredentialsController_list' },
  { page: 'pipes', title: 'Pipes', operation: 'PipesController_list' },
  {
    page: 'dashboards',
    title: 'Dashboards',
    operation: 'DashboardsController_list',
    itemOperation: 'DashboardsController_versions',
  },
];
