/** The console's sections, each shown to whoever may call the operation that lists its content. */
export const SECTIONS = [
  { page: 'audit', title: 'Audit log', operation: 'AuditController_list' },
  { page: 'history', title: 'Pipe spec history', operation: 'PipeSpecHistoryController_list' },
  { page: 'vault', title: 'Vault', operation: 'CredentialsController_list' },
  { page: 'pipes', title: 'Pipes', operation: 'PipesController_list' },
  { page: 'dashboards', title: 'Dashboards', operation: 'DashboardsController_list' },
] as const;

export type SectionPage = (typeof SECTIONS)[number]['page'];
