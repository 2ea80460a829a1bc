import { injectGlobalWebcomponentCss } from 'Frontend/generated/jar-resources/theme-util.js';

import '@vaadin/polymer-legacy-adapter/style-modules.js';
import '@vaadin/vertical-layout/src/vaadin-vertical-layout.js';
import '@vaadin/app-layout/src/vaadin-app-layout.js';
import '@vaadin/button/src/vaadin-button.js';
import '@vaadin/tooltip/src/vaadin-tooltip.js';
import 'Frontend/generated/jar-resources/disableOnClickFunctions.js';
import '@vaadin/horizontal-layout/src/vaadin-horizontal-layout.js';
import '@vaadin/side-nav/src/vaadin-side-nav.js';
import '@vaadin/side-nav/src/vaadin-side-nav-item.js';
import '@vaadin/grid/src/vaadin-grid.js';
import '@vaadin/grid/src/vaadin-grid-column.js';
import '@vaadin/grid/src/vaadin-grid-sorter.js';
import '@vaadin/checkbox/src/vaadin-checkbox.js';
import 'Frontend/generated/jar-resources/flow-component-renderer.js';
import 'Frontend/generated/jar-resources/gridConnector.ts';
import 'Frontend/generated/jar-resources/vaadin-grid-flow-selection-column.js';
import '@vaadin/grid/src/vaadin-grid-column-group.js';
import 'Frontend/generated/jar-resources/lit-renderer.ts';
import '@vaadin/context-menu/src/vaadin-context-menu.js';
import 'Frontend/generated/jar-resources/contextMenuConnector.js';
import 'Frontend/generated/jar-resources/contextMenuTargetConnector.js';
import '@vaadin/text-field/src/vaadin-text-field.js';
import '@vaadin/notification/src/vaadin-notification.js';
import '@vaadin/confirm-dialog/src/vaadin-confirm-dialog.js';
import '@vaadin/password-field/src/vaadin-password-field.js';
import '@vaadin/common-frontend/ConnectionIndicator.js';
import '@vaadin/vaadin-lumo-styles/sizing.js';
import '@vaadin/vaadin-lumo-styles/spacing.js';
import '@vaadin/vaadin-lumo-styles/style.js';
import '@vaadin/vaadin-lumo-styles/vaadin-iconset.js';
import 'Frontend/generated/jar-resources/ReactRouterOutletElement.tsx';

const loadOnDemand = (key) => {
  const pending = [];
  if (key === '9ee6bf68ce23536ae8a33f7af92a82d67da4aea744412e570fcbf37003fee1d4') {
    pending.push(import('./chunks/chunk-64a1ca43db2baa2ae62a55e8728733aa77e0ee9320c5edb1e729fba2e4d935fb.js'));
  }
  if (key === '3a81c30f6239cee7c789c5d49ea1a242edcf5a7c85826971530b711f1603a2ca') {
    pending.push(import('./chunks/chunk-be26620e7440559bc0aed47e05d95d370b2f9e19f41ab93640c6848fba9250ff.js'));
  }
  if (key === '984bf9a3c2de97fd07d44873cca8ba777735f703e168641cf4817f543861f958') {
    pending.push(import('./chunks/chunk-be26620e7440559bc0aed47e05d95d370b2f9e19f41ab93640c6848fba9250ff.js'));
  }
  if (key === '680681986627b9d109dcf02d86e20e160d40ee420dfdf666059756fd0fa72139') {
    pending.push(import('./chunks/chunk-64a1ca43db2baa2ae62a55e8728733aa77e0ee9320c5edb1e729fba2e4d935fb.js'));
  }
  if (key === 'db57dce4159669cb94f9e35e84e0d83f4c7b0bf8ae6e7866cb5364da28f3343e') {
    pending.push(import('./chunks/chunk-567ddb5e1f1235e798bd6323286efe1c58193960396fcfe45c3a7735d14c949b.js'));
  }
  if (key === '9630358efa1d91ed312804d24287bfaa1b868ace90f1b236b70e867edf9e0295') {
    pending.push(import('./chunks/chunk-b047e9ebffdfc32e445ed989a83b5753b38b4e63fb720ec615ae7c86d18b8c77.js'));
  }
  return Promise.all(pending);
}

window.Vaadin = window.Vaadin || {};
window.Vaadin.Flow = window.Vaadin.Flow || {};
window.Vaadin.Flow.loadOnDemand = loadOnDemand;
window.Vaadin.Flow.resetFocus = () => {
 let ae=document.activeElement;
 while(ae&&ae.shadowRoot) ae = ae.shadowRoot.activeElement;
 return !ae || ae.blur() || ae.focus() || true;
}