// Swagger UI over Anvil's contract, served by Anvil itself: nothing is loaded from elsewhere.
window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute('data-contract'), window.location.href).toString(),
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
  });
});
