import { createContext, useContext } from 'react';
import type { GatewayClient, MeTenant } from './gateway';

/** What every page needs: the typed client and the tenant the person acts in. */
export interface ConsoleContext {
  client: GatewayClient;
  tenant: MeTenant;
  /** Whether the person's roles in the tenant allow an operation (the gateway still checks). */
  can: (operationId: string) => boolean;
}

export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const context = useContext(Console);
  if (context === null) throw new Error('useConsole outside a signed-in console');
  return context;
}
